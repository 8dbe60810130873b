package dev.nqueens.web;

import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;

/** Checks what a request names: a size, a level it must be stored at, a page. Failures are problems. */
final class Requests {

    /** Rows one API page returns at most. */
    static final int MAX_LIMIT = 10_000;

    static final int DEFAULT_LIMIT = 100;

    private Requests() {}

    /** The published summary of size {@code n}. */
    static BoardSummary published(SolutionStore store, int n) {
        if (n < 1 || n > BoardSizes.MAX) {
            throw Problems.badRequest("size " + n + " is out of range: sizes are 1.." + BoardSizes.MAX);
        }
        return store.summary(n).orElseThrow(() -> Problems.notFound("n = " + n + " is not published"));
    }

    /** The published summary of size {@code n}, which must be stored at least at {@code level}. */
    static BoardSummary storedAt(SolutionStore store, int n, StoredLevel level) {
        BoardSummary summary = published(store, n);
        if (summary.stored().compareTo(level) > 0) {
            throw Problems.notFound("n = " + n + " is stored as " + summary.stored() + ": "
                    + (level == StoredLevel.ALL ? "its solutions are not stored" : "no solutions are stored"));
        }
        return summary;
    }

    static long offset(long offset) {
        if (offset < 0) {
            throw Problems.badRequest("offset " + offset + " is negative: offset is 0 or more");
        }
        return offset;
    }

    static int limit(long limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw Problems.badRequest("limit " + limit + " is out of range: limit is 1.." + MAX_LIMIT);
        }
        return (int) limit;
    }

    static String format(String format) {
        if (!"json".equals(format) && !"csv".equals(format)) {
            throw Problems.badRequest("format '" + format + "' is unknown: json or csv");
        }
        return format;
    }
}
