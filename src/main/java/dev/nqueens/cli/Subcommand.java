package dev.nqueens.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * What every command has: the standard help and version options, and the root command, whose
 * {@link NqueensCommand#launch() launch} opens what the command needs. picocli reads the
 * annotations of this class for each subclass.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = Version.class)
abstract class Subcommand implements Callable<Integer> {

    @ParentCommand
    NqueensCommand nqueens;
}
