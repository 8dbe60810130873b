package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.thymeleaf.context.Context;
import org.thymeleaf.spring6.SpringTemplateEngine;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;

/** The board picture as the template {@code board.html} draws it, rendered by Thymeleaf itself. */
class BoardPictureTests {

    private static String render(String placement) {
        ClassLoaderTemplateResolver templates = new ClassLoaderTemplateResolver();
        templates.setPrefix("templates/");
        templates.setSuffix(".html");
        templates.setTemplateMode(TemplateMode.HTML);
        SpringTemplateEngine engine = new SpringTemplateEngine();
        engine.setTemplateResolver(templates);
        return engine.process(
                        "board",
                        java.util.Set.of("board"),
                        new Context(null, Map.of("picture", BoardPicture.of(placement))))
                .strip();
    }

    @Test
    void eachQueenSitsInItsRowAndColumnAndTheBoardCarriesItsPlacement() {
        String svg = render("2 4 1 3");
        assertThat(svg)
                .startsWith("<svg class=\"board\"")
                .contains("viewBox=\"0 0 4 4\"")
                .contains("data-placement=\"2 4 1 3\"")
                .contains("width=\"96\"");
        Matcher queens = Pattern.compile("<circle class=\"queen\" cx=\"([\\d.]+)\" cy=\"([\\d.]+)\"")
                .matcher(svg);
        StringBuilder read = new StringBuilder();
        int row = 0;
        while (queens.find()) {
            read.append((int) Double.parseDouble(queens.group(1)) + 1).append(' ');
            assertThat(queens.group(2)).isEqualTo(row++ + ".5");
        }
        assertThat(read.toString().strip()).isEqualTo("2 4 1 3");
        assertThat(svg.split("class=\"dark\"", -1)).hasSize(1 + 8);
    }

    @Test
    void digitsAreGroupedInThrees() {
        assertThat(new Format().digits(666090624)).isEqualTo("666\u2009090\u2009624");
        assertThat(new Format().digits(92)).isEqualTo("92");
    }
}
