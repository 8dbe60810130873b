package dev.nqueens.cli;

import dev.nqueens.job.BoardSizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * What the user asked for, parsed and checked before anything is started: a command and its
 * options. Options that are settings ({@code --sizes}, {@code --threads}) become Spring
 * properties with the highest precedence.
 */
public record Invocation(String command, Optional<BoardSizes> sizes, Optional<Integer> threads, int size,
        boolean boards, boolean fundamentalOnly, long limit) {

    public static final String RUN = "run";
    public static final String SHOW = "show";
    public static final String HELP = "help";

    @Command(name = "nqueens", subcommands = {RunOptions.class, ShowOptions.class},
            description = "Solves the N-Queens problem for a range of board sizes, stores and exports the solutions.")
    static final class Root {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
        boolean help;
    }

    @Command(name = RUN, description = "Run the nightly job: solve, store, reduce, export.")
    static final class RunOptions {
        @Option(names = "--sizes", paramLabel = "LIST", description = "Board sizes, e.g. 1-12 or 4,8,10-12.")
        String sizes;

        @Option(names = "--threads", paramLabel = "T", description = "Partitions solved at once (default: cores).")
        String threads;
    }

    @Command(name = SHOW, description = "Print the stored solutions of one board size.")
    static final class ShowOptions {
        @Parameters(index = "0", paramLabel = "N", description = "The board size.")
        String size;

        @Option(names = "--boards", description = "Print each solution as a board of Q and dots.")
        boolean boards;

        @Option(names = "--fundamental", description = "Only the class representatives.")
        boolean fundamental;

        @Option(names = "--limit", paramLabel = "K", description = "Print at most K solutions.")
        String limit;
    }

    /** The usage text of all commands. */
    public static String usage() {
        CommandLine root = new CommandLine(new Root());
        StringBuilder text = new StringBuilder(root.getUsageMessage());
        root.getSubcommands().values().forEach(sub -> text.append(System.lineSeparator()).append(sub.getUsageMessage()));
        return text.toString();
    }

    /**
     * @throws UsageException naming what is wrong and what is allowed
     */
    public static Invocation parse(String... args) {
        CommandLine commandLine = new CommandLine(new Root());
        ParseResult result;
        try {
            result = commandLine.parseArgs(args);
        } catch (ParameterException e) {
            throw new UsageException(e.getMessage().lines().findFirst().orElse("bad arguments")
                    + " (commands: run, show; see --help)");
        }
        if (result.isUsageHelpRequested() || !result.hasSubcommand()) {
            if (!result.isUsageHelpRequested()) {
                throw new UsageException("no command given (commands: run, show; see --help)");
            }
            return new Invocation(HELP, Optional.empty(), Optional.empty(), 0, false, false, 0);
        }
        ParseResult sub = result.subcommand();
        Object options = sub.commandSpec().userObject();
        if (options instanceof RunOptions run) {
            Optional<BoardSizes> sizes = Optional.ofNullable(run.sizes).map(Invocation::sizes);
            Optional<Integer> threads = Optional.ofNullable(run.threads)
                    .map(text -> positive("--threads", text, "a whole number of threads >= 1"));
            return new Invocation(RUN, sizes, threads, 0, false, false, 0);
        }
        ShowOptions show = (ShowOptions) options;
        BoardSizes one = sizes(show.size);
        if (one.sizes().size() != 1) {
            throw new UsageException("show takes one board size, not '" + show.size + "'");
        }
        long limit = show.limit == null ? Long.MAX_VALUE
                : positive("--limit", show.limit, "a whole number of solutions >= 1");
        return new Invocation(SHOW, Optional.empty(), Optional.empty(), one.sizes().get(0), show.boards,
                show.fundamental, limit);
    }

    /** The settings this invocation overrides, as Spring command-line properties. */
    public String[] springArguments() {
        List<String> arguments = new ArrayList<>();
        sizes.ifPresent(value -> arguments.add("--nqueens.sizes=" + value));
        threads.ifPresent(value -> arguments.add("--nqueens.threads=" + value));
        return arguments.toArray(String[]::new);
    }

    private static BoardSizes sizes(String text) {
        try {
            return BoardSizes.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static int positive(String option, String text, String allowed) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with what is allowed
        }
        throw new UsageException("invalid value '" + text + "' for " + option + ": " + allowed);
    }
}
