package dev.nqueens.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.verify.VerificationReport.Check;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rendered report: aligned columns, one line per check, and the totals line. */
class VerificationReportTests {

    @Test
    void aPassingReportEndsWithAllPassed() {
        VerificationReport report = new VerificationReport(List.of(
                Check.ok("n=1 placements", "1 solution and 1 class valid"),
                Check.ok("export manifest", "manifest.json lists 6 files")));

        assertThat(report.allPassed()).isTrue();
        assertThat(report.render())
                .isEqualTo("n=1 placements   ok      1 solution and 1 class valid\n"
                        + "export manifest  ok      manifest.json lists 6 files\n"
                        + "verify: all 2 checks passed\n");
    }

    @Test
    void aFailingReportCountsItsFailures() {
        VerificationReport report = new VerificationReport(List.of(
                Check.failed("n=8 placements", "n=8 ordinal 17: '1 2 3 4 5 6 7 8' is not a solution"),
                Check.ok("n=8 order", "fine"),
                Check.failed("export n=8", "solutions-n08.csv is listed but missing")));

        assertThat(report.allPassed()).isFalse();
        assertThat(report.failures()).extracting(Check::name).containsExactly("n=8 placements", "export n=8");
        assertThat(report.render())
                .isEqualTo("n=8 placements  FAILED  n=8 ordinal 17: '1 2 3 4 5 6 7 8' is not a solution\n"
                        + "n=8 order       ok      fine\n"
                        + "export n=8      FAILED  solutions-n08.csv is listed but missing\n"
                        + "verify: 2 of 3 checks FAILED\n");
    }
}
