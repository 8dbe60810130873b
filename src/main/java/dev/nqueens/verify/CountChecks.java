package dev.nqueens.verify;

import dev.nqueens.settings.ClassCounts;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.verify.VerificationReport.Check;
import java.util.Optional;

/**
 * The count checks of one size: the summary row against what is stored and against its own
 * identities ({@code fundamental = rot90 + rot180 + asymmetric}, {@code total = 2·rot90 +
 * 4·rot180 + 8·asymmetric}, the single queen of n = 1 counting once), and the summary row against
 * the published values.
 */
final class CountChecks {

    private CountChecks() {}

    /**
     * {@code n=8 counts}: the summary's identities hold and, unless only counts are stored
     * ({@code stored} empty), the stored rows add up to the summary.
     */
    static Check counts(BoardSummary summary, Optional<ClassCounts> stored) {
        int n = summary.n();
        String name = "n=" + n + " counts";
        ClassCounts summarised = summarised(summary);
        long classes = summary.rot90Classes() + summary.rot180Classes() + summary.asymmetricClasses();
        if (classes != summary.fundamentalSolutions()) {
            return Check.failed(
                    name,
                    "n=" + n + ": board_summary splits " + summary.fundamentalSolutions()
                            + " fundamental into " + classes + " (rot90/rot180/asymmetric " + summary.rot90Classes()
                            + "/"
                            + summary.rot180Classes() + "/" + summary.asymmetricClasses() + ")");
        }
        long members = (n == 1 ? 1 : 2) * summary.rot90Classes()
                + 4 * summary.rot180Classes()
                + 8 * summary.asymmetricClasses();
        if (members != summary.totalSolutions()) {
            return Check.failed(
                    name,
                    "n=" + n + ": board_summary's classes have " + members + " members, but its total is "
                            + summary.totalSolutions());
        }
        if (stored.isEmpty()) {
            return Check.ok(name, summarised.describe() + " (only counts stored)");
        }
        if (!stored.get().equals(summarised)) {
            return Check.failed(
                    name,
                    "n=" + n + ": stored " + stored.get().describe() + ", but board_summary says "
                            + summarised.describe());
        }
        return Check.ok(name, summarised.describe() + ", as in board_summary");
    }

    /** {@code n=8 known values}: the summary against the published counts, where there are any. */
    static Check known(BoardSummary summary, Optional<KnownCounts.Known> published) {
        int n = summary.n();
        String name = "n=" + n + " known values";
        if (published.isEmpty()) {
            return Check.ok(name, "no published value");
        }
        ClassCounts expected = published.get().counts();
        ClassCounts summarised = summarised(summary);
        if (!expected.equals(summarised)) {
            return Check.failed(
                    name,
                    "n=" + n + ": board_summary says " + summarised.describe() + ", but the known values are "
                            + expected.describe());
        }
        return Check.ok(name, "board_summary matches the published values");
    }

    private static ClassCounts summarised(BoardSummary summary) {
        return new ClassCounts(
                summary.totalSolutions(),
                summary.fundamentalSolutions(),
                summary.rot90Classes(),
                summary.rot180Classes(),
                summary.asymmetricClasses());
    }
}
