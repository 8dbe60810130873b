package dev.nqueens.store;

import dev.nqueens.settings.StoredLevel;
import java.time.OffsetDateTime;

/** One row of {@code board_summary}: the counts of a solved size and how it was stored. */
public record BoardSummary(
        int n,
        long totalSolutions,
        long fundamentalSolutions,
        long rot90Classes,
        long rot180Classes,
        long asymmetricClasses,
        StoredLevel stored,
        OffsetDateTime computedAt,
        long elapsedMs) {}
