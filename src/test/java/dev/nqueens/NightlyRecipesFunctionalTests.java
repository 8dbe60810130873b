package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd units and cron lines of docs/operations.md, docs/web.md and docs/cluster.md, read
 * out of the pages (so the pages and this test cannot drift): the units pass
 * {@code systemd-analyze verify} where it is installed and count exit 5 and a stop by SIGTERM
 * (143) as success, exit 3 as a failure; the cron lines run as cron runs them ({@code /bin/sh},
 * cron's {@code PATH}, its {@code %} escapes), with {@code /opt/nqueens} and {@code ./nqueens}
 * standing for a fresh folder and the project's launcher: they write their logs on a fresh
 * install, print nothing on a good night and one line on a failing one, which cron mails.
 */
class NightlyRecipesFunctionalTests {

    private static final Path SYSTEMD_ANALYZE = Path.of("/usr/bin/systemd-analyze");
    private static final Pattern UNIT_NAME = Pattern.compile("^# /etc/systemd/system/(\\S+)$");
    private static final Pattern CRON_LINE = Pattern.compile("^(\\S+\\s+){5}(cd /opt/nqueens .*)$");

    @TempDir
    Path install;

    @TempDir
    Path home;

    @Test
    void theUnitsPassSystemdsCheckAndCountOnlyRealFailuresAsFailures() throws Exception {
        Map<String, String> units = units();
        assertThat(units)
                .containsKeys("nqueens.service", "nqueens.timer", "nqueens-serve.service", "nqueens-worker.service");

        for (Map.Entry<String, String> unit : units.entrySet()) {
            if (!unit.getKey().endsWith(".service")) {
                continue;
            }
            Map<String, List<String>> service = section(unit.getValue(), "Service");
            assertThat(service.get("ExecStart"))
                    .as(unit.getKey())
                    .singleElement()
                    .asString()
                    .startsWith("/opt/nqueens/nqueens ");
            assertThat(service.get("WorkingDirectory")).as(unit.getKey()).containsExactly("/opt/nqueens");
            List<String> success = words(service.get("SuccessExitStatus"));
            assertThat(success)
                    .as(unit.getKey() + ": a stop by SIGTERM is a clean stop")
                    .contains("143", "SIGTERM");
            assertThat(success)
                    .as(unit.getKey() + ": exit 3, another holder of the file, is a failure")
                    .doesNotContain("3");
            assertThat(words(service.get("RestartPreventExitStatus")))
                    .as(unit.getKey())
                    .doesNotContain("3");
        }
        Map<String, List<String>> run = section(units.get("nqueens.service"), "Service");
        assertThat(run.get("ExecStart")).containsExactly("/opt/nqueens/nqueens run");
        assertThat(run.get("Type")).containsExactly("oneshot");
        assertThat(words(run.get("SuccessExitStatus")))
                .as("the window closed: not a failure")
                .contains("5");
        assertThat(section(units.get("nqueens.timer"), "Timer").get("OnCalendar"))
                .containsExactly("*-*-* 02:00:00");

        if (!Files.isExecutable(SYSTEMD_ANALYZE)) {
            System.err.println("NightlyRecipesFunctionalTests: " + SYSTEMD_ANALYZE
                    + " is not installed: the units' syntax is not verified");
            return;
        }
        // systemd-analyze checks that ExecStart names an executable: the launcher, in the folder
        // the units' /opt/nqueens stands for.
        Files.createSymbolicLink(install.resolve("nqueens"), NqueensProcess.LAUNCHER);
        Path folder = Files.createDirectories(home.resolve("units"));
        List<String> command = new ArrayList<>(List.of(SYSTEMD_ANALYZE.toString(), "verify"));
        for (Map.Entry<String, String> unit : units.entrySet()) {
            Path file = folder.resolve(unit.getKey());
            Files.writeString(file, unit.getValue().replace("/opt/nqueens", install.toString()));
            command.add(file.toString());
        }
        Process verify = new ProcessBuilder(command).redirectErrorStream(true).start();
        String said = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(verify.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(verify.exitValue()).as(said).isZero();
        assertThat(said.lines())
                .as("no warning about the units (an unknown key, a bad value)")
                .noneMatch(line -> line.contains(folder.toString())
                        || units.keySet().stream().anyMatch(line::contains));
    }

    @Test
    void theCronLinesWorkOnAFreshInstallAndSayOneLineWhenANightFails() throws Exception {
        String nightly = cronCommand("./nqueens run");
        String backup = cronCommand("./nqueens backup");
        Files.createDirectories(install.resolve("config"));
        Files.writeString(install.resolve("config/application.yml"), """
                nqueens:
                  sizes: 1-8
                """);

        Cron night = cron(nightly);
        assertThat(night.exitCode()).as(night.printed()).isZero();
        assertThat(night.printed()).as("a good night prints nothing: no mail").isEmpty();
        assertThat(install.resolve("logs/nightly.log")).content().contains("Job COMPLETED in ");

        Path backups = Files.createDirectories(install.resolve("backups"));
        Path old = Files.writeString(backups.resolve("nqueens-2020-01-01.zip"), "a backup of long ago");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofDays(40))));
        Cron saved = cron(backup);
        assertThat(saved.exitCode()).as(saved.printed()).isZero();
        assertThat(saved.printed()).isEmpty();
        assertThat(install.resolve("logs/backup.log")).content().startsWith("Backed up ");
        try (Stream<Path> kept = Files.list(backups)) {
            assertThat(kept.map(path -> path.getFileName().toString()))
                    .as("tonight's backup, and none older than 30 days")
                    .singleElement()
                    .asString()
                    .matches("nqueens-\\d{4}-\\d{2}-\\d{2}\\.zip");
        }

        // A db-server left running holds the file: the night is refused (exit 3) and says so once.
        NqueensProcess holder = NqueensProcess.start(
                install,
                "db-server",
                "--pg-port",
                String.valueOf(ServedResults.freePort()),
                "--tcp-port",
                String.valueOf(ServedResults.freePort()));
        try {
            holder.awaitLine(line -> line.startsWith("Serving "), Duration.ofMinutes(2));
            Cron refused = cron(nightly);
            assertThat(refused.printed().lines())
                    .singleElement()
                    .asString()
                    .startsWith("nqueens: ")
                    .contains("(exit 3)")
                    .contains(install.resolve("logs/nightly.log").toString());
            assertThat(install.resolve("logs/nightly.log"))
                    .content()
                    .contains("db-server")
                    .contains("pid " + holder.pid());
        } finally {
            holder.terminate();
        }
    }

    /**
     * The nightly line's own logic, with a stand-in for the launcher that ends with each exit
     * code: silent for 0, 5 (the window closed) and 143 (SIGTERM), one line for every other.
     */
    @Test
    void theNightlyCronLineIsSilentOnlyForTheExitsThatAreNoFailure() throws Exception {
        String nightly = cronCommand("./nqueens run");
        Path standIn = install.resolve("stand-in");
        for (int code : List.of(0, 1, 2, 3, 4, 5, 137, 143)) {
            Files.writeString(standIn, "#!/bin/sh\necho \"the run's own output\"\nexit " + code + "\n");
            Files.setPosixFilePermissions(standIn, PosixFilePermissions.fromString("rwx------"));
            Cron night = cron(nightly, standIn);
            if (Set.of(0, 5, 143).contains(code)) {
                assertThat(night.printed()).as("exit " + code).isEmpty();
            } else {
                assertThat(night.printed().lines())
                        .as("exit " + code)
                        .singleElement()
                        .asString()
                        .contains("(exit " + code + ")");
            }
            assertThat(install.resolve("logs/nightly.log")).content().contains("the run's own output");
        }
    }

    /** What a cron job printed (what cron would mail) and how its shell ended. */
    private record Cron(int exitCode, String printed) {}

    private Cron cron(String command) throws IOException, InterruptedException {
        return cron(command, NqueensProcess.LAUNCHER);
    }

    /**
     * Runs {@code command} as cron runs a crontab line's command: {@code /bin/sh -c}, in the
     * user's home, with cron's environment, after cron's {@code %} handling ({@code \%} is a
     * {@code %}; an unescaped {@code %} ends the command). {@code /opt/nqueens} stands for the
     * install folder, {@code ./nqueens} for {@code launcher}.
     */
    private Cron cron(String command, Path launcher) throws IOException, InterruptedException {
        StringBuilder shell = new StringBuilder();
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (c == '\\' && i + 1 < command.length() && command.charAt(i + 1) == '%') {
                shell.append('%');
                i++;
            } else if (c == '%') {
                break;
            } else {
                shell.append(c);
            }
        }
        String substituted =
                shell.toString().replace("/opt/nqueens", install.toString()).replace("./nqueens ", launcher + " ");
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", substituted)
                .directory(home.toFile())
                .redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.clear();
        environment.putAll(Map.of(
                "PATH",
                "/usr/bin:/bin",
                "HOME",
                home.toString(),
                "SHELL",
                "/bin/sh",
                "LOGNAME",
                "nqueens",
                "JAVA_HOME",
                System.getProperty("java.home"),
                "NQUEENS_JAVA_OPTS",
                NqueensProcess.TEST_OPTIONS));
        Process process = builder.start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).as(substituted).isTrue();
        return new Cron(process.exitValue(), printed);
    }

    /** The command of docs/operations.md's crontab line that runs {@code what}, as written. */
    private static String cronCommand(String what) throws IOException {
        List<String> commands = new ArrayList<>();
        for (String line : codeLines(Path.of("docs", "operations.md"), "")) {
            Matcher cron = CRON_LINE.matcher(line);
            if (cron.matches() && cron.group(2).contains(what + " ")) {
                commands.add(cron.group(2));
            }
        }
        assertThat(commands).as("the crontab line of " + what).hasSize(1);
        return commands.get(0);
    }

    /** Each unit of the {@code ini} blocks of the docs, by the name its first comment line gives it. */
    private static Map<String, String> units() throws IOException {
        Map<String, String> units = new LinkedHashMap<>();
        for (String page : List.of("operations.md", "web.md", "cluster.md")) {
            String name = null;
            for (String line : codeLines(Path.of("docs", page), "ini")) {
                Matcher unit = UNIT_NAME.matcher(line);
                if (unit.matches()) {
                    name = unit.group(1);
                    units.put(name, "");
                } else if (name != null) {
                    units.put(name, units.get(name) + line + "\n");
                }
            }
        }
        return units;
    }

    /** The lines of the fenced blocks of {@code language} ("" for none) in a page, their indent removed. */
    private static List<String> codeLines(Path page, String language) throws IOException {
        List<String> lines = new ArrayList<>();
        String fence = null;
        for (String line : Files.readAllLines(page)) {
            String stripped = line.strip();
            if (fence == null && stripped.startsWith("```")) {
                fence = stripped.substring(3);
                if (fence.equals(language)) {
                    lines.add("");
                }
            } else if (fence != null && stripped.equals("```")) {
                fence = null;
            } else if (fence != null && fence.equals(language)) {
                lines.add(stripped);
            }
        }
        return lines;
    }

    /** The settings of one section of a unit, each key with its values in order. */
    private static Map<String, List<String>> section(String unit, String name) {
        Map<String, List<String>> settings = new HashMap<>();
        boolean inside = false;
        for (String line : unit.lines().toList()) {
            if (line.startsWith("[")) {
                inside = line.equals("[" + name + "]");
            } else if (inside && line.contains("=") && !line.startsWith("#")) {
                settings.computeIfAbsent(line.substring(0, line.indexOf('=')).strip(), key -> new ArrayList<>())
                        .add(line.substring(line.indexOf('=') + 1).strip());
            }
        }
        return settings;
    }

    /** The words of a setting's values, e.g. {@code SuccessExitStatus=5 143 SIGTERM}; none for a missing setting. */
    private static List<String> words(List<String> values) {
        return values == null
                ? List.of()
                : values.stream()
                        .flatMap(value -> Stream.of(value.split("\\s+")))
                        .toList();
    }
}
