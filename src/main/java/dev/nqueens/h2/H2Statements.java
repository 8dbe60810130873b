package dev.nqueens.h2;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.h2.util.ScriptReader;

/**
 * A text of SQL cut into statements the way H2 cuts a script ({@link ScriptReader}, which its
 * {@code RUNSCRIPT} and its shell use): at each {@code ;} outside a string literal, a quoted name,
 * a {@code $$} string and a comment ({@code --}, {@code //}, nested {@code /* *}{@code /}). It
 * agrees with H2's parser on these; where the two differ it cuts more, not less (a {@code ;}
 * between backticks, which the parser takes for a quoted name, ends a statement here). That
 * matters: H2 runs every statement after the first of a text it is handed, even one that drops a
 * table, whatever the transaction. H2's parser itself is not open to callers.
 */
public final class H2Statements {

    /**
     * What {@link #split} found.
     *
     * @param statements the statements in order, without their {@code ;}, each comment replaced by
     *     as many blanks (so that every character stays where it is in the text); empty ones too
     * @param unclosedComment whether the text ends inside a {@code /*} comment
     */
    public record Split(List<String> statements, boolean unclosedComment) {}

    private H2Statements() {}

    public static Split split(String sql) {
        ScriptReader reader = new ScriptReader(new StringReader(sql));
        reader.setSkipRemarks(true);
        List<String> statements = new ArrayList<>();
        for (String statement; (statement = reader.readStatement()) != null; ) {
            statements.add(statement);
        }
        return new Split(statements, reader.isInsideRemark() && reader.isBlockRemark());
    }
}
