package dev.nqueens.cli;

import dev.nqueens.cluster.ClusterStatus;
import dev.nqueens.failure.ExitCode;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code cluster}: the cluster's workers, what they run, the current run's partitions, the queue. */
@Command(
        name = "cluster",
        header = "Cluster mode: workers, partitions of the current run, the queue.",
        description = "The workers (alive or gone, threads, version, heartbeat, what each runs), the partitions of"
                + " the current run by state, and the requests waiting in the queue.",
        footerHeading = "%nExample:%n",
        footer = "  ./nqueens cluster")
final class ClusterCommand extends Subcommand {

    /** The shared database to read and the broker to ask; no context. */
    static final Needs NEEDS = Needs.of(Needs.Database.READ, Needs.Part.CLUSTER);

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
