package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class BoardPictureTests {

    @Test
    void eachQueenSitsInItsRowAndColumnAndTheBoardCarriesItsPlacement() {
        String svg = BoardPicture.svg("2 4 1 3", 96);
        assertThat(svg).startsWith("<svg class=\"board\"").contains("viewBox=\"0 0 4 4\"")
                .contains("data-placement=\"2 4 1 3\"");
        Matcher queens = Pattern.compile("<circle class=\"queen\" cx=\"([\\d.]+)\" cy=\"([\\d.]+)\"").matcher(svg);
        StringBuilder read = new StringBuilder();
        while (queens.find()) {
            read.append((int) Double.parseDouble(queens.group(1)) + 1).append(' ');
        }
        assertThat(read.toString().strip()).isEqualTo("2 4 1 3");
        assertThat(svg.split("class=\"dark\"", -1)).hasSize(1 + 8);
    }

    @Test
    void textIsEscaped() {
        assertThat(Html.escape("<a href=\"x\">&'")).isEqualTo("&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
        assertThat(Html.digits(666090624)).isEqualTo("666\u2009090\u2009624");
        assertThat(Html.digits(92)).isEqualTo("92");
    }
}
