package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.job.NightlyScheduler;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code schedule}: the nightly job in the foreground, at each time of its cron expression. On an
 * embedded H2 file it holds the file all along and serves it to the other commands ({@link Session#hold}).
 */
@Command(
        name = "schedule",
        header = "Run the nightly job in the foreground on its cron schedule.",
        description = "At each time of the setting nqueens.schedule.cron (default:"
                + " '${bundle:default.nqueens.schedule.cron}'), one run at a time, until SIGTERM or Ctrl-C.",
        footerHeading = "%nExample:%n",
        footer = "  ./nqueens schedule")
final class ScheduleCommand extends Subcommand {

    static final Needs NEEDS = Needs.of(Needs.Database.MIGRATE, Needs.Part.JOB, Needs.Part.EXPORTS);

    @Override
    public Integer call() {
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            NightlyRun nightlyRun = session.bean(NightlyRun.class);
            NightlyScheduler scheduler = new NightlyScheduler(nightlyRun::run);
            session.onStop(
                    () -> {
                        scheduler.stop();
                        session.stopTheNight(nightlyRun);
                    },
                    null);
            session.hold(
                    "schedule",
                    "",
                    Session.runningTheNights(session.settings().schedule().cron())
                            + ": stop it for a run from the shell");
            scheduler.runForever(session.settings(), session.console().out());
            return ExitCode.OK;
        }
    }
}
