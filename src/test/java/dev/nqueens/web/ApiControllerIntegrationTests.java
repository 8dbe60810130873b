package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.nqueens.InProcess;
import dev.nqueens.NqueensProcess;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import dev.nqueens.query.ReadOnlyQuery;
import dev.nqueens.query.RunHistory;
import dev.nqueens.store.SolutionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API's pages through Spring MVC's own test support, on a database a real run filled (n = 8,
 * every solution stored): offsets and limits are bounded, so nothing overflows however large the
 * numbers a client sends, and every bad parameter is a problem.
 */
@WebMvcTest(controllers = ApiController.class, properties = "logging.file.name=")
@ActiveProfiles(Serve.PROFILE)
@Import(ApiControllerIntegrationTests.Database.class)
@ResourceLock(TestResources.TEST_JVM)
class ApiControllerIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String LARGEST = String.valueOf(Long.MAX_VALUE);

    @TempDir
    static Path work;

    @Autowired
    MockMvc mvc;

    @BeforeAll
    static void runEight() {
        NqueensProcess.Result run = InProcess.run(work, "run", "--sizes", "8");
        assertThat(run.exitCode()).as(run.err()).isZero();
    }

    /** The store and the history on the H2 file the run wrote. */
    @TestConfiguration
    static class Database {

        @Bean
        DataSource dataSource() {
            Path file = work.resolve("data/nqueens");
            return new DriverManagerDataSource(TestDatabases.h2Url(file), "sa", TestDatabases.ownerPassword(file));
        }

        @Bean
        SolutionStore solutionStore(DataSource dataSource) {
            return SolutionStore.of(new JdbcTemplate(dataSource));
        }

        @Bean
        RunHistory runHistory(DataSource dataSource) {
            return new RunHistory(new ReadOnlyQuery(dataSource));
        }
    }

    @Test
    void pagesWalkTheRowsAndEndWithANullNextOffset() throws Exception {
        JsonNode first = page("/api/sizes/8/solutions?offset=80&limit=10");
        assertThat(first.get("next_offset").asLong()).isEqualTo(90);
        assertThat(first.get("solutions")).hasSize(10);
        assertThat(first.get("solutions").get(0).get("ordinal").asLong()).isEqualTo(81);
        JsonNode last = page("/api/sizes/8/solutions?offset=90&limit=10");
        assertThat(last.get("next_offset").isNull()).isTrue();
        assertThat(last.get("solutions")).hasSize(2);
        assertThat(page("/api/sizes/8/classes?offset=2&limit=10")
                        .get("next_offset")
                        .isNull())
                .isTrue();
    }

    @Test
    void anOffsetPastTheLastRowIsAnEmptyPageWhateverItsSize() throws Exception {
        for (String list : new String[] {"solutions", "classes"}) {
            for (String offset : new String[] {"92", "1000000", LARGEST}) {
                for (String limit : new String[] {"1", "10000"}) {
                    String path = "/api/sizes/8/" + list + "?offset=" + offset + "&limit=" + limit;
                    JsonNode page = page(path);
                    assertThat(page.get("offset").asString()).as(path).isEqualTo(offset);
                    assertThat(page.get("next_offset").isNull()).as(path).isTrue();
                    assertThat(page.get(list)).as(path).isEmpty();
                }
            }
            MockHttpServletResponse csv =
                    send(get("/api/sizes/8/" + list + "?format=csv&limit=10000&offset=" + LARGEST));
            assertThat(csv.getStatus()).isEqualTo(200);
            assertThat(csv.getContentAsString(StandardCharsets.UTF_8).lines()).hasSize(1); // the header alone
        }
    }

    @Test
    void badParametersAreProblems() throws Exception {
        for (String path : new String[] {
            "/api/sizes/8/solutions?offset=-1",
            "/api/sizes/8/solutions?offset=" + LARGEST + "0",
            "/api/sizes/8/solutions?offset=ten",
            "/api/sizes/8/solutions?limit=0",
            "/api/sizes/8/solutions?limit=10001",
            "/api/sizes/8/classes?limit=99999999999999999999",
            "/api/sizes/8/solutions?format=xml",
            "/api/sizes/abc",
            "/api/sizes/0",
            "/api/sizes/26",
            "/api/runs?limit=0",
            "/api/runs?limit=" + LARGEST
        }) {
            assertProblem(send(get(path)), 400, path);
        }
        assertProblem(send(get("/api/sizes/9")), 404, "not published");
        assertProblem(send(get("/api/sizes/8/nothing")), 404, "no such path");
        assertProblem(send(post("/api/sizes")), 405, "POST");
    }

    private JsonNode page(String path) throws Exception {
        MockHttpServletResponse response = send(get(path));
        assertThat(response.getStatus()).as(path).isEqualTo(200);
        return JSON.readTree(response.getContentAsByteArray());
    }

    private MockHttpServletResponse send(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request).andReturn().getResponse();
    }

    private static void assertProblem(MockHttpServletResponse response, int status, String what) throws Exception {
        assertThat(response.getStatus()).as(what).isEqualTo(status);
        assertThat(response.getContentType()).as(what).isEqualTo("application/problem+json");
        assertThat(JSON.readTree(response.getContentAsByteArray()).get("status").asInt())
                .as(what)
                .isEqualTo(status);
        assertThat(response.getHeader("Content-Security-Policy")).as(what).isEqualTo(SecurityHeaders.POLICY);
    }
}
