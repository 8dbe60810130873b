package dev.nqueens.cli;

import dev.nqueens.cluster.PartitionWorker;
import dev.nqueens.failure.ExitCode;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code worker}: executes the partitions a cluster's manager sends through the broker. */
@Command(name = "worker", mixinStandardHelpOptions = true, versionProvider = Version.class,
        header = "Cluster mode: execute partitions sent through the broker.",
        description = "Takes partitions of the nightly job from the broker and executes them against the shared"
                + " PostgreSQL database, until SIGTERM (which hands back what is running and exits 0).",
        footerHeading = "%nExample:%n", footer = "  ./nqueens worker --threads 16")
final class WorkerCommand implements Callable<Integer> {

    /** The job's steps, in cluster mode, writing rows to a database some manager migrated. */
    static final Needs NEEDS = new Needs(Needs.Database.WRITE, true, false, true, false);

    @ParentCommand
    NqueensCommand nqueens;

    @Option(names = "--threads", paramLabel = "T",
            description = "Partitions executed at once, 1 or more (default: setting nqueens.threads, ${bundle:default.nqueens.threads}; 0 = one per core).")
    String threads;

    @Override
    public Integer call() {
        Map<String, String> options = threads == null ? Map.of() : Map.of("nqueens.threads",
                Integer.toString(Options.positive("--threads", threads, "a whole number of threads >= 1")));
        Optional<Integer> handedOver = Handoff.forTheConfiguredSizes(nqueens.launch(), options);
        if (handedOver.isPresent()) {
            return handedOver.get();
        }
        try (Session session = nqueens.launch().open(NEEDS, options)) {
            PartitionWorker worker = session.bean(PartitionWorker.class);
            // A worker told to stop has handed back what it held: that is its normal end, exit 0.
            session.onStop(worker::stop, ExitCode.OK);
            return worker.run(session.settings().effectiveThreads(), Version.text(), session.console().out(),
                    session.console().err());
        }
    }
}
