package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The pages of {@code ./nqueens serve} in a real browser: Debian's Chromium driven by Selenium
 * through Debian's chromedriver ({@code .ci/run} installs both). Without them the tests are
 * reported as skipped, saying so (in CI, with {@code CI=true}, they fail instead). Screenshots of
 * both pages land in {@code target/screenshots}, and, with {@code -Dnqueens.screenshots=docs}, in
 * {@code docs/}, where the documentation shows them (docs/development.md says how).
 */
@Order(Integer.MAX_VALUE - 5) // middling: sixth from the back, so the last classes to start are short (see the pom)
class BrowserFunctionalTests {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    static Path directory;

    private static ServedResults served;
    private static ChromeDriver browser;
    private static Path downloads;

    @BeforeAll
    static void serveAndOpenABrowser() throws Exception {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        // In CI (.ci/run installs them) a missing browser is a failure, not a reason to skip.
        assertThat(installed || !"true".equals(System.getenv("CI")))
                .as("chromium and chromedriver in CI")
                .isTrue();
        Assumptions.assumeTrue(
                installed,
                "browser tests skipped: Debian's chromium and chromium-driver are not"
                        + " installed (apt-get install chromium chromium-driver; .ci/run does)");
        served = ServedResults.start(directory, "nqueens:\n  schedule:\n    enabled: false\n");
        downloads = Files.createDirectories(directory.resolve("downloads"));
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000");
        options.setExperimentalOption(
                "prefs",
                Map.of("download.default_directory", downloads.toString(), "download.prompt_for_download", false));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, java.util.logging.Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        // Chromium's profile and its other scratch folders (it leaves some in /tmp) in the test's folder.
        Path scratch = Files.createDirectories(directory.resolve("browser-tmp"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withEnvironment(Map.of("TMPDIR", scratch.toString()))
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void close() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (served != null) {
            served.close();
        }
    }

    @Test
    void theReportShowsTheCountsOfEightAndOnePlotPointPerSize() throws Exception {
        browser.get(served.url("/"));
        WebElement eight = browser.findElement(By.cssSelector("#sizes tr[data-n='8']"));
        List<String> cells = eight.findElements(By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
        assertThat(cells.subList(0, 3)).containsExactly("8", "92", "12");
        int published = browser.findElements(By.cssSelector("#sizes tbody tr")).size();
        assertThat(published).isEqualTo(10);
        for (String series : List.of("q", "u", "t")) {
            List<WebElement> points = browser.findElements(By.cssSelector("svg#growth g.point." + series + "[data-n]"));
            assertThat(points).as("points of series " + series).hasSize(published);
            assertThat(points).allMatch(WebElement::isDisplayed);
        }
        assertThat(browser.findElements(By.cssSelector("#runs tbody tr")).get(0).getText())
                .contains("COMPLETED");
        noPolicyViolations();
        screenshot("report.png");
    }

    @Test
    void theEightPageDrawsTheTwelveClassesAsTheReferenceHasThem() throws Exception {
        browser.get(served.url("/sizes/8"));
        List<WebElement> boards = browser.findElements(By.cssSelector("figure.class svg.board"));
        assertThat(boards).hasSize(12);
        List<String> drawn = new ArrayList<>();
        for (WebElement board : boards) {
            String fromSquares = queensAsDrawn(board, 8);
            assertThat(fromSquares)
                    .as("the drawn queens match data-placement")
                    .isEqualTo(board.getAttribute("data-placement"));
            drawn.add(fromSquares);
        }
        assertThat(drawn).containsExactlyElementsOf(ServeFunctionalTests.representativesOfEight());
        noPolicyViolations();
        screenshot("sizes-8.png");

        browser.get(served.url("/sizes/10"));
        assertThat(browser.findElement(By.cssSelector(".no-solutions")).getText())
                .contains("no solutions are stored");
    }

    /**
     * The placement read off the picture: for each queen, the square its centre lies on, from where the
     * browser drew it relative to the board.
     */
    private static String queensAsDrawn(WebElement board, int n) {
        Rectangle square = board.getRect();
        int[] columns = new int[n];
        List<WebElement> queens = board.findElements(By.cssSelector("circle.queen"));
        assertThat(queens).hasSize(n);
        for (WebElement queen : queens) {
            Rectangle disc = queen.getRect();
            double x = disc.getX() + disc.getWidth() / 2.0 - square.getX();
            double y = disc.getY() + disc.getHeight() / 2.0 - square.getY();
            int row = (int) Math.floor(y / (square.getHeight() / (double) n));
            int column = (int) Math.floor(x / (square.getWidth() / (double) n));
            assertThat(columns[row]).as("one queen per row").isZero();
            columns[row] = column + 1;
        }
        return String.join(
                " ", java.util.Arrays.stream(columns).mapToObj(String::valueOf).toList());
    }

    @Test
    void aDownloadLinkFetchesAFileWhoseChecksumMatches() throws Exception {
        browser.get(served.url("/"));
        WebElement row = browser.findElements(By.cssSelector("#files tbody tr")).stream()
                .filter(candidate -> candidate.getText().startsWith("fundamental-n08.csv"))
                .findFirst()
                .orElseThrow();
        String listed = row.findElement(By.tagName("code")).getText();
        row.findElement(By.tagName("a")).click();
        Path file = downloads.resolve("fundamental-n08.csv");
        new WebDriverWait(browser, Duration.ofSeconds(30)).until(driver -> Files.exists(file));
        assertThat(ServedResults.sha256(file)).isEqualTo(listed);
        String manifest = Files.readString(directory.resolve("output/manifest.json"));
        assertThat(manifest).contains(listed);
    }

    private static void noPolicyViolations() {
        List<String> messages = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .toList();
        assertThat(messages).noneMatch(message -> message.contains("Content Security Policy"));
    }

    private static void screenshot(String name) throws Exception {
        File shot = browser.getScreenshotAs(OutputType.FILE);
        Files.createDirectories(Path.of("target", "screenshots"));
        Files.copy(shot.toPath(), Path.of("target", "screenshots", name), StandardCopyOption.REPLACE_EXISTING);
        String published = System.getProperty("nqueens.screenshots");
        if (published != null && !published.isBlank()) {
            Files.copy(shot.toPath(), Path.of(published, name), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
