package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The algorithm core stays plain Java: no Spring, no JDBC, no Jackson. */
class AlgorithmCoreIsolationTests {

    @ParameterizedTest
    @ValueSource(strings = {"solver", "symmetry", "count"})
    void importsNoFrameworkOrDatabase(String pkg) throws IOException {
        Path folder = Path.of("src/main/java/dev/nqueens", pkg);
        assertThat(folder).isDirectory();
        try (Stream<Path> files = Files.list(folder)) {
            List<String> offending = files.filter(file -> file.toString().endsWith(".java"))
                    .flatMap(AlgorithmCoreIsolationTests::lines)
                    .filter(line -> line.startsWith("import "))
                    .filter(line -> line.contains("org.springframework") || line.contains("java.sql")
                            || line.contains("javax.sql") || line.contains("jackson"))
                    .toList();
            assertThat(offending).isEmpty();
        }
    }

    private static Stream<String> lines(Path file) {
        try {
            return Files.readAllLines(file).stream();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
