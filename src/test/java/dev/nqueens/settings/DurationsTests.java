package dev.nqueens.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Lengths of time as a person writes them: a whole number and its unit, or ISO-8601; nothing else. */
class DurationsTests {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "30s, PT30S",
        "90m, PT1H30M",
        "12h, PT12H",
        "90d, PT2160H",
        "1w, PT168H",
        "2w, PT336H",
        "0s, PT0S",
        "P90D, PT2160H",
        "PT5H, PT5H",
        "P2DT3H, PT51H",
        "PT0.5S, PT0.5S",
        "' 5h ', PT5H"
    })
    void readsAWholeNumberWithItsUnitOrIso8601(String text, String length) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.parse(length));
    }

    /** A bare number was milliseconds to Spring Boot, M its minutes: no unit, or a unit read two ways, is refused. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "90",
                "86400",
                "0",
                "3M",
                "5H",
                "500ms",
                "1y",
                "1mo",
                "-5d",
                "-P5D",
                "PT-5H",
                "5x",
                "5 d",
                "1.5h",
                "d",
                "",
                " ",
                "P1W",
                "99999999999999999999d",
                "9999999999999999w"
            })
    void refusesAnyOtherForm(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "'")
                .hasMessageContaining("s, m, h, d or w")
                .hasMessageContaining("ISO-8601");
    }
}
