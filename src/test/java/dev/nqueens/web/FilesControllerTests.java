package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;

class FilesControllerTests {

    @Test
    void oneRangeIsClippedToTheFile() {
        assertThat(FilesController.range("bytes=0-9", 100)).hasValueSatisfying(r -> assertThat(r).containsExactly(0, 9));
        assertThat(FilesController.range("bytes=90-", 100)).hasValueSatisfying(r -> assertThat(r).containsExactly(90, 99));
        assertThat(FilesController.range("bytes=90-500", 100))
                .hasValueSatisfying(r -> assertThat(r).containsExactly(90, 99));
        assertThat(FilesController.range("bytes=-10", 100)).hasValueSatisfying(r -> assertThat(r).containsExactly(90, 99));
        assertThat(FilesController.range("bytes=-500", 100)).hasValueSatisfying(r -> assertThat(r).containsExactly(0, 99));
    }

    @Test
    void noSeveralOrMalformedRangesMeanTheWholeFile() {
        assertThat(FilesController.range(null, 100)).isEmpty();
        assertThat(FilesController.range("bytes=0-9,20-29", 100)).isEmpty();
        assertThat(FilesController.range("bytes=9-0", 100)).isEmpty();
        assertThat(FilesController.range("bytes=-", 100)).isEmpty();
        assertThat(FilesController.range("lines=1-2", 100)).isEmpty();
        assertThat(FilesController.range("bytes=99999999999999999999-", 100)).isEmpty();
    }

    @Test
    void aRangeBeyondTheEndIsUnsatisfiable() {
        assertThatThrownBy(() -> FilesController.range("bytes=100-", 100)).isInstanceOf(ErrorResponseException.class)
                .satisfies(e -> assertThat(((ErrorResponseException) e).getStatusCode().value()).isEqualTo(416));
        assertThatThrownBy(() -> FilesController.range("bytes=-0", 100)).isInstanceOf(ErrorResponseException.class);
    }

    @Test
    void gzipIsUsedWhenTheClientNamesItWithoutRefusingIt() {
        assertThat(FilesController.acceptsGzip("gzip, deflate")).isTrue();
        assertThat(FilesController.acceptsGzip("deflate, GZIP;q=0.5")).isTrue();
        assertThat(FilesController.acceptsGzip("*")).isTrue();
        assertThat(FilesController.acceptsGzip(null)).isFalse();
        assertThat(FilesController.acceptsGzip("identity")).isFalse();
        assertThat(FilesController.acceptsGzip("br, deflate")).isFalse();
        assertThat(FilesController.acceptsGzip("gzip;q=0")).isFalse();
        assertThat(FilesController.acceptsGzip("gzip; q=0.0")).isFalse();
        assertThat(FilesController.gzipped("\"abc\"")).isEqualTo("\"abc-gzip\"");
    }
}
