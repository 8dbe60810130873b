package dev.nqueens.query;

import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.h2.H2Statements;
import dev.nqueens.store.Dialect;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.postgresql.core.Parser;

/**
 * The one statement of a text, found the way the database it goes to cuts a text into statements,
 * so that a {@code ;} in a string literal, a quoted name or a comment ends nothing and a second
 * statement is never handed on: H2 runs every statement after the first of a text (even one that
 * drops a table, whatever the transaction), and on PostgreSQL a {@code COMMIT} among them would end
 * the read-only transaction. H2: {@link H2Statements}. PostgreSQL: the driver's own {@link Parser},
 * which cuts the text into the statements it sends; it is handed a text with the comments blanked
 * by the driver's own rules, so that a comment after the last {@code ;} is no statement. The
 * server then parses the one statement it gets again: in a prepared statement it refuses more than
 * one, and it parses a whole text before it runs any of it.
 *
 * @param text the statement as written, without the {@code ;} and the comments around it
 * @param start where it starts in the text given (0-based)
 * @param blanked the same with its comments replaced by blanks, for reading its keywords
 */
record OneStatement(String text, int start, String blanked) {

    /**
     * @param standardConformingStrings PostgreSQL's setting of that name (on by default): whether a
     *     backslash in a string literal is an ordinary character
     * @throws InvalidInputException if the text holds no statement, more than one, or a comment
     *     that is not closed
     */
    static OneStatement of(String sql, Dialect dialect, boolean standardConformingStrings) {
        String text = sql == null ? "" : sql;
        String blanked;
        int statements;
        boolean unclosedComment;
        if (dialect == Dialect.H2) {
            H2Statements.Split split = H2Statements.split(text);
            blanked = String.join(";", split.statements());
            statements = (int) split.statements().stream()
                    .filter(statement -> !statement.isBlank())
                    .count();
            unclosedComment = split.unclosedComment();
        } else {
            char[] chars = text.toCharArray();
            unclosedComment = blankComments(chars, standardConformingStrings);
            blanked = new String(chars);
            statements = postgresStatements(blanked, standardConformingStrings).size();
        }
        if (unclosedComment) {
            throw new InvalidInputException("syntax error in the statement: a comment opened with /* is not closed");
        }
        if (statements == 0) {
            throw new InvalidInputException("no statement given: pass one read-only SQL statement in quotes");
        }
        if (statements > 1) {
            throw new InvalidInputException("refused: one statement only; the text holds " + statements
                    + " (a ';' outside quotes and comments ends a statement)");
        }
        int start = 0;
        int end = blanked.length();
        while (start < end && separator(blanked.charAt(start))) {
            start++;
        }
        while (end > start && separator(blanked.charAt(end - 1))) {
            end--;
        }
        return new OneStatement(text.substring(start, end), start, blanked.substring(start, end));
    }

    private static boolean separator(char c) {
        return c == ';' || Character.isWhitespace(c);
    }

    private static List<?> postgresStatements(String text, boolean standardConformingStrings) {
        try {
            return Parser.parseJdbcSql(text, standardConformingStrings, false, true, false, false);
        } catch (SQLException e) {
            throw new IllegalStateException("the PostgreSQL driver could not read the statement: " + e.getMessage(), e);
        }
    }

    /**
     * Replaces each comment by blanks, stepping over literals, quoted names and dollar-quoted
     * strings with the driver's own rules (the same steps as its {@link Parser#parseJdbcSql}).
     *
     * @return whether the text ends inside a block comment
     */
    private static boolean blankComments(char[] text, boolean standardConformingStrings) {
        for (int i = 0; i < text.length; i++) {
            switch (text[i]) {
                case '\'' -> i = Parser.parseSingleQuotes(text, i, standardConformingStrings);
                case '"' -> i = Parser.parseDoubleQuotes(text, i);
                case '$' -> i = Parser.parseDollarQuotes(text, i);
                case '-' -> {
                    int end = Parser.parseLineComment(text, i);
                    if (end > i) {
                        // The comment runs up to the line break it ends at, or to the end of the text.
                        int last = text[end] == '\n' || text[end] == '\r' ? end - 1 : end;
                        Arrays.fill(text, i, last + 1, ' ');
                        i = last;
                    }
                }
                case '/' -> {
                    int end = Parser.parseBlockComment(text, i);
                    if (end >= text.length) {
                        return true;
                    }
                    if (end > i) {
                        Arrays.fill(text, i, end + 1, ' ');
                        i = end;
                    }
                }
                default -> {}
            }
        }
        return false;
    }
}
