package dev.nqueens.verify;

import java.util.List;

/**
 * The outcome of a verification: one {@link Check} per thing verified, in the order they ran.
 * {@link #render()} gives the human-readable report, one aligned line per check and a last line
 * {@code verify: all N checks passed} or {@code verify: K of N checks FAILED}.
 */
public record VerificationReport(List<Check> checks) {

    private static final String PASSED = "ok";
    private static final String FAILED = "FAILED";

    /**
     * One thing verified: a name such as {@code n=8 placements} or {@code export n=8}, whether
     * it passed, and one line saying what was found; a failed check names the first damaged
     * row or file.
     */
    public record Check(String name, boolean passed, String detail) {

        static Check ok(String name, String detail) {
            return new Check(name, true, detail);
        }

        static Check failed(String name, String detail) {
            return new Check(name, false, detail);
        }
    }

    public VerificationReport {
        checks = List.copyOf(checks);
    }

    public boolean allPassed() {
        return checks.stream().allMatch(Check::passed);
    }

    public List<Check> failures() {
        return checks.stream().filter(check -> !check.passed()).toList();
    }

    /** The report as text: one line per check, then the totals line; every line ends with {@code \n}. */
    public String render() {
        int nameWidth =
                checks.stream().mapToInt(check -> check.name().length()).max().orElse(0);
        String line = "%-" + Math.max(nameWidth, 1) + "s  %-" + FAILED.length() + "s  %s\n";
        StringBuilder text = new StringBuilder();
        for (Check check : checks) {
            text.append(String.format(line, check.name(), check.passed() ? PASSED : FAILED, check.detail()));
        }
        int failed = failures().size();
        if (failed == 0) {
            text.append(String.format("verify: all %d checks passed\n", checks.size()));
        } else {
            text.append(String.format("verify: %d of %d checks FAILED\n", failed, checks.size()));
        }
        return text.toString();
    }
}
