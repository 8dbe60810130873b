package dev.nqueens.web;

import dev.nqueens.query.LastRun;
import dev.nqueens.query.RunHistory;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * Gauges for {@code /actuator/prometheus}, computed at each scrape from the job repository and
 * {@code board_summary} (so runs of other processes are seen): the last run's status (one series
 * per status, 1 for the current one), duration, start and end, when a run last completed, and per
 * published size its counts and time. Counts are doubles in Prometheus: exact up to 2^53.
 */
@Component
@Profile(Serve.PROFILE)
@Lazy(false) // serve's context initializes lazily: this registers itself with Prometheus when made
class NqueensMetrics implements MultiCollector {

    private static final List<String> STATUSES =
            List.of("COMPLETED", "STARTING", "STARTED", "STOPPING", "STOPPED", "FAILED", "ABANDONED", "UNKNOWN");

    private final RunHistory history;
    private final SolutionStore store;

    NqueensMetrics(RunHistory history, SolutionStore store, PrometheusRegistry registry) {
        this.history = history;
        this.store = store;
        registry.register(this);
    }

    @Override
    public MetricSnapshots collect() {
        List<MetricSnapshot> metrics = new ArrayList<>();
        history.lastRun().ifPresent(run -> lastRun(run, metrics));
        List<BoardSummary> sizes = store.summaries();
        metrics.add(gauge("nqueens_sizes_published", "Board sizes published in board_summary", sizes.size()));
        metrics.add(
                perSize("nqueens_size_solutions", "Q(n): solutions of the size", sizes, BoardSummary::totalSolutions));
        metrics.add(perSize(
                "nqueens_size_fundamental_solutions",
                "U(n): symmetry classes of the size",
                sizes,
                BoardSummary::fundamentalSolutions));
        metrics.add(perSize(
                "nqueens_size_elapsed_seconds",
                "Time the size took to compute",
                sizes,
                size -> size.elapsedMs() / 1000.0));
        metrics.add(perSize(
                "nqueens_size_computed_timestamp_seconds",
                "When the size was computed (Unix time)",
                sizes,
                size -> size.computedAt() == null
                        ? Double.NaN
                        : size.computedAt().toEpochSecond()));
        return new MetricSnapshots(metrics);
    }

    private static void lastRun(LastRun run, List<MetricSnapshot> metrics) {
        GaugeSnapshot.Builder status = GaugeSnapshot.builder()
                .name("nqueens_last_run_status")
                .help("Status of the latest nightly run: 1 for its status, 0 for the others");
        STATUSES.forEach(name -> status.dataPoint(GaugeDataPointSnapshot.builder()
                .labels(Labels.of("status", name))
                .value(name.equals(run.status()) ? 1 : 0)
                .build()));
        metrics.add(status.build());
        metrics.add(gauge("nqueens_last_run_id", "Job execution id of the latest nightly run", run.run()));
        epoch(run.started())
                .ifPresent(time -> metrics.add(gauge(
                        "nqueens_last_run_start_timestamp_seconds",
                        "When the latest nightly run started (Unix time)",
                        time)));
        epoch(run.ended())
                .ifPresent(time -> metrics.add(gauge(
                        "nqueens_last_run_end_timestamp_seconds",
                        "When the latest nightly run ended (Unix time)",
                        time)));
        if (run.started() != null && run.ended() != null) {
            metrics.add(gauge(
                    "nqueens_last_run_duration_seconds",
                    "How long the latest nightly run took",
                    Duration.between(run.started(), run.ended()).toMillis() / 1000.0));
        }
        epoch(run.lastCompleted().orElse(null))
                .ifPresent(time -> metrics.add(gauge(
                        "nqueens_last_completed_run_end_timestamp_seconds",
                        "When a nightly run last completed (Unix time)",
                        time)));
    }

    private static Optional<Double> epoch(Instant time) {
        return Optional.ofNullable(time).map(instant -> instant.toEpochMilli() / 1000.0);
    }

    private static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder()
                .name(name)
                .help(help)
                .dataPoint(GaugeDataPointSnapshot.builder().value(value).build())
                .build();
    }

    private static GaugeSnapshot perSize(
            String name, String help, List<BoardSummary> sizes, ToDoubleFunction<BoardSummary> value) {
        GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
        sizes.forEach(size -> gauge.dataPoint(GaugeDataPointSnapshot.builder()
                .labels(Labels.of("n", String.valueOf(size.n())))
                .value(value.applyAsDouble(size))
                .build()));
        return gauge.build();
    }
}
