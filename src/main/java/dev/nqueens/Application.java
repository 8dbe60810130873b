package dev.nqueens;

import dev.nqueens.cli.Commands;
import dev.nqueens.cli.ExitCodes;
import dev.nqueens.cli.Invocation;
import dev.nqueens.cli.SettingsCheck;
import dev.nqueens.cli.UsageException;
import java.io.PrintStream;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Entry point: parses the command line before anything starts, then runs the command in a Spring
 * context and exits with its outcome. Bad input gets one line on stderr and exit code 2.
 */
@SpringBootApplication
public class Application {

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command line and returns the exit code (used by main and by the tests). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Invocation invocation;
        try {
            invocation = Invocation.parse(args);
        } catch (UsageException e) {
            err.println("nqueens: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        if (Invocation.HELP.equals(invocation.command())) {
            out.print(Invocation.usage());
            return ExitCodes.OK;
        }
        if (Invocation.COUNT.equals(invocation.command())) {
            return Commands.count(invocation, out, err);
        }
        SpringApplication application = new SpringApplication(Application.class);
        application.setBannerMode(Banner.Mode.OFF);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setLogStartupInfo(false);
        application.addListeners(new SettingsCheck(Invocation.RUN.equals(invocation.command())));
        try (ConfigurableApplicationContext context = application.run(invocation.springArguments())) {
            return context.getBean(Commands.class).execute(invocation, out, err);
        } catch (RuntimeException e) {
            UsageException usage = findCause(e, UsageException.class);
            if (usage != null) {
                err.println("nqueens: " + usage.getMessage());
                return ExitCodes.USAGE;
            }
            err.println("nqueens: " + rootMessage(e));
            return ExitCodes.FAILED;
        }
    }

    private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getName() : root.getMessage();
        return message.lines().findFirst().orElse(message);
    }
}
