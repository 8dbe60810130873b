package dev.nqueens.cli;

import dev.nqueens.store.SchemaCheck;
import java.util.Optional;
import picocli.CommandLine.IVersionProvider;

/** {@code nqueens 1.0.0, schema 11}: this build, as {@code --version} and {@code cluster} show it. */
public final class Version implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {text()};
    }

    /** The build's version and the schema version it needs. */
    public static String text() {
        String build = Optional.ofNullable(Version.class.getPackage().getImplementationVersion())
                .orElse("dev");
        return "nqueens " + build + ", schema " + SchemaCheck.VERSION;
    }
}
