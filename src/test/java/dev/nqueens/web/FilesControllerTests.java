package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FilesControllerTests {

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
