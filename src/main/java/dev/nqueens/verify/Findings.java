package dev.nqueens.verify;

import dev.nqueens.verify.VerificationReport.Check;

/**
 * The problems one check finds while rows stream past: the first is kept to be named, the rest
 * are only counted, so memory stays constant however much is damaged.
 */
final class Findings {

    private final String checkName;
    private String first;
    private long count;

    Findings(String checkName) {
        this.checkName = checkName;
    }

    void add(String problem) {
        if (count == 0) {
            first = problem;
        }
        count++;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** The check: passed with {@code whenPassed}, or failed naming the first problem and counting the others. */
    Check toCheck(String whenPassed) {
        if (count == 0) {
            return Check.ok(checkName, whenPassed);
        }
        return Check.failed(checkName, count == 1 ? first : first + " (and " + (count - 1) + " more)");
    }
}
