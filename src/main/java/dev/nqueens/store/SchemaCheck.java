package dev.nqueens.store;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.output.ValidateResult;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;

/**
 * Who changes the schema: only the commands that run the job ({@code run}, {@code schedule})
 * migrate the database. Every other command ({@code show}, {@code sql}, a cluster worker, …) only
 * checks that the database is at exactly the schema version this build was made for, and refuses
 * to go on otherwise: an older database has to be migrated by a run first, a newer one needs a
 * newer build.
 */
public final class SchemaCheck implements FlywayMigrationStrategy {

    @Override
    public void migrate(Flyway flyway) {
        check(flyway.info(), flyway.validateWithResult());
    }

    /**
     * @throws SchemaMismatchException naming the database's version and the one wanted
     */
    static void check(MigrationInfoService info, ValidateResult validation) {
        String wanted = latestResolved(info).map(MigrationVersion::getVersion).orElse("none");
        MigrationInfo current = info.current();
        if (current == null) {
            throw new SchemaMismatchException("the database has no nqueens schema yet: `./nqueens run` creates it");
        }
        String found = current.getVersion().getVersion();
        if (Arrays.stream(info.all()).anyMatch(m -> m.getState() == MigrationState.FUTURE_SUCCESS
                || m.getState() == MigrationState.FUTURE_FAILED)) {
            throw new SchemaMismatchException("the database schema is at version " + found
                    + ", newer than this build of nqueens (version " + wanted + "): upgrade this installation");
        }
        if (info.pending().length > 0) {
            throw new SchemaMismatchException("the database schema is at version " + found + ", this build needs version "
                    + wanted + ": the next `./nqueens run` (or `schedule`) migrates it");
        }
        if (!validation.validationSuccessful) {
            throw new SchemaMismatchException("the database schema does not match this build's migrations (version "
                    + wanted + "): " + validation.getAllErrorMessages().lines().findFirst().orElse("validation failed"));
        }
    }

    /** The newest migration this build ships. */
    public static Optional<MigrationVersion> latestResolved(MigrationInfoService info) {
        return Arrays.stream(info.all()).filter(m -> m.getState().isResolved() && m.getVersion() != null)
                .map(MigrationInfo::getVersion).max(Comparator.naturalOrder());
    }

    /** The database is not at the schema version this build needs. */
    public static final class SchemaMismatchException extends IllegalStateException {
        SchemaMismatchException(String message) {
            super(message);
        }
    }
}
