package dev.nqueens.cli;

import dev.nqueens.cluster.ClusterStatus;
import dev.nqueens.failure.ExitCode;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code cluster}: the cluster's workers, what they run, the current run's partitions, the queue. */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        header = "Cluster mode: workers, partitions of the current run, the queue.",
        description = "The workers (alive or gone, threads, version, heartbeat, what each runs), the partitions of"
                + " the current run by state, and the requests waiting in the queue.",
        footerHeading = "%nExample:%n",
        footer = "  ./nqueens cluster")
final class ClusterCommand implements Callable<Integer> {

    /** The shared database to read and the broker to ask; no context. */
    static final Needs NEEDS = Needs.of(Needs.Database.READ, Needs.Part.CLUSTER);

    @ParentCommand
    NqueensCommand nqueens;

    @Override
    public Integer call() {
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            new ClusterStatus(
                            session.dataSource(),
                            session.environment(),
                            session.settings().cluster())
                    .print(session.console().out());
            return ExitCode.OK;
        }
    }
}
