package dev.nqueens.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code nqueens} command line: one class per command, each with its options, its help and
 * what it needs started ({@link Needs}). Bad input gets one line on stderr and exit code 2, before
 * anything is started; every other failure one line with the exit code of its kind ({@link Failures}).
 */
@Command(
        name = "nqueens",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        synopsisSubcommandLabel = "COMMAND",
        description = "Solves the N-Queens problem for a range of board sizes, stores the solutions in a SQL"
                + " database, reduces them to their symmetry classes and exports JSON and CSV reports.",
        commandListHeading = "%nCommands:%n",
        // In the order help lists them; help last.
        subcommands = {
            RunCommand.class,
            ShowCommand.class,
            CountCommand.class,
            VerifyCommand.class,
            SqlCommand.class,
            HistoryCommand.class,
            ScheduleCommand.class,
            DbServerCommand.class,
            ServeCommand.class,
            WorkerCommand.class,
            ClusterCommand.class,
            PruneCommand.class,
            BackupCommand.class,
            RestoreCommand.class,
            CommandLine.HelpCommand.class
        },
        footer = {
            "",
            "`./nqueens COMMAND --help` (or `./nqueens help COMMAND`) shows one command's options and an" + " example."
        })
public final class NqueensCommand implements Callable<Integer> {

    private final Launch launch;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--debug",
            scope = ScopeType.INHERIT,
            description = "Also show the libraries' log on the console (it goes to logs/nqueens.log), and a failure's"
                    + " stack trace.")
    void debug(boolean debug) {
        launch.debug(debug);
    }

    private NqueensCommand(Console console) {
        this.launch = new Launch(console);
    }

    /** Runs one command line and returns its exit code. */
    public static int execute(String[] args, Console console) {
        NqueensCommand root = new NqueensCommand(console);
        CommandLine commandLine = new CommandLine(root);
        commandLine.setOut(new PrintWriter(console.out(), true));
        commandLine.setErr(new PrintWriter(console.err(), true));
        // The options' values are converted as they are parsed (Options; an output format is an enum).
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setParameterExceptionHandler((failure, args1) -> {
            String line = failure.getMessage().lines().findFirst().orElse("bad arguments");
            // A refused value names its option; other errors, which may be a misspelt command, list the commands.
            console.err()
                    .println("nqueens: " + line
                            + (failure.getCause() instanceof TypeConversionException
                                    ? ""
                                    : " (commands: " + String.join(", ", commandNames(commandLine)) + "; see --help)"));
            return dev.nqueens.failure.ExitCode.USAGE;
        });
        commandLine.setExecutionExceptionHandler((failure, command, parsed) -> {
            Failures.Outcome outcome = Failures.of(failure, root.launch.database());
            console.err().println("nqueens: " + outcome.line());
            if (root.launch.debug()) {
                failure.printStackTrace(console.err());
            }
            return outcome.exitCode();
        });
        if (asksForHelp(args)) {
            commandLine.setResourceBundle(new SettingDefaults());
        }
        int exitCode = commandLine.execute(args);
        console.out().flush();
        return exitCode;
    }

    private static List<String> commandNames(CommandLine root) {
        return root.getSubcommands().values().stream()
                .filter(command -> !command.getCommandSpec().usageMessage().hidden())
                .map(CommandLine::getCommandName)
                .filter(name -> !name.equals("help"))
                .toList();
    }

    /** Help is the only output that shows the settings' defaults: they are read only for it. */
    private static boolean asksForHelp(String[] args) {
        for (String arg : args) {
            if (arg.equals("-h") || arg.equals("--help") || arg.equals("help")) {
                return true;
            }
        }
        return false;
    }

    Launch launch() {
        return launch;
    }

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "no command given");
    }
}
