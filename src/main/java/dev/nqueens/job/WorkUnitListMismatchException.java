package dev.nqueens.job;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.Failure;

/**
 * This build's counting engine does not list the same work units for a size as the build that
 * planned it: its counts must not be added to the plan's.
 */
public final class WorkUnitListMismatchException extends Failure {

    public WorkUnitListMismatchException(int n, String planned) {
        super(
                ExitCode.FAILED,
                "this build's counting engine cuts n=" + n + " into other work units (fingerprint "
                        + WorkUnits.fingerprint(n).substring(0, 12) + ", the run planned " + planned.substring(0, 12)
                        + "): it is another version of nqueens and takes no part in this size");
    }
}
