package dev.nqueens;

import dev.nqueens.cli.CountLine;
import java.util.Optional;

/**
 * The packaged jar's entry point. A plain {@code count} line is run at once, with none of Spring's
 * or picocli's classes loaded (the packaged jar finds them only by opening its nested jars, which
 * costs more CPU than counting a small size); every other line goes to {@link Application}.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        Optional<CountLine> count = CountLine.of(args);
        System.exit(count.isPresent() ? count.get().run(System.out, System.err)
                : Application.run(args, System.out, System.err));
    }
}
