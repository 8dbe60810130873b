package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CountLineTests {

    @ParameterizedTest
    @ValueSource(strings = {"count 17", "count 17 --threads 2", "count 1 --threads=1", "count --threads 3 12",
        "count 28 --threads 64"})
    void aPlainCountLineMeansWhatTheFullParserReadsInIt(String line) {
        Invocation full = Invocation.parse(line.split(" "));
        Optional<CountLine> quick = CountLine.of(line.split(" "));
        assertThat(quick).contains(new CountLine(full.size(), full.threads()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"count 0", "count 29", "count 8-9", "count 8,9", "count abc", "count 8 --threads 0",
        "count 8 --threads -1", "count 8 --threads x", "count 8 --threads 99999999999", "count 8 --foo 2",
        "count 8 --threads", "count", "count 08x"})
    void anyOtherCountLineIsLeftToTheFullParserWhichExplainsIt(String line) {
        assertThat(CountLine.of(line.split(" "))).isEmpty();
        assertThatThrownBy(() -> Invocation.parse(line.split(" "))).isInstanceOf(UsageException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"count 8 --threads 1 --threads 2", "count +8", "count 8 -t 2", "run --sizes 8", "help"})
    void linesItDoesNotReadAreLeftToTheFullParser(String line) {
        assertThat(CountLine.of(line.split(" "))).isEmpty();
    }
}
