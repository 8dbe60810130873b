package dev.nqueens.export;

import dev.nqueens.store.AsciiBuffer;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.RepresentativeRow;
import dev.nqueens.store.SolutionRow;
import dev.nqueens.store.SolutionStore;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Writes the two files of one size's rows, CSV and JSON, from one read of the rows: millions of
 * them for a size stored with every solution, so each line is formatted straight into a buffer
 * (the rows hold numbers and placements of digits and spaces, nothing to escape). The format is
 * the one {@link Rows}' Jackson writers give the same rows (the golden files of the tests hold it):
 * a header line, then per CSV line the columns in the order of {@code Rows}, the placement quoted
 * when it holds a space; one JSON object whose array has one element per line.
 */
final class SizeFiles {

    /** Bytes buffered per file before they go to it. */
    private static final int FLUSH_AT = 1 << 16;

    private SizeFiles() {}

    /** {@code solutions-nNN.json} and {@code .csv}: every solution of a size stored ALL. */
    static List<ManifestEntry> solutions(Path folder, BoardSummary summary, SolutionStore store) throws IOException {
        String name = ReportExporter.solutionsName(summary.n());
        return write(
                folder,
                name,
                summary,
                "solutions",
                "ordinal,placement,class_ordinal,orbit_size,symmetry",
                rows -> store.forEachSolution(summary.n(), Long.MAX_VALUE, row -> rows.accept(new Line(row))));
    }

    /** {@code fundamental-nNN.json} and {@code .csv}: the class representatives. */
    static List<ManifestEntry> classes(Path folder, BoardSummary summary, SolutionStore store) throws IOException {
        String name = ReportExporter.fundamentalName(summary.n());
        return write(
                folder,
                name,
                summary,
                "classes",
                "class_ordinal,placement,orbit_size,symmetry",
                rows -> store.forEachRepresentative(summary.n(), Long.MAX_VALUE, row -> rows.accept(new Line(row))));
    }

    /** One row of either kind, as the files show it: its number first, the placement, then the rest. */
    private record Line(
            String numberName, long number, String placement, Long classOrdinal, int orbitSize, String symmetry) {

        Line(SolutionRow row) {
            this("ordinal", row.ordinal(), row.placement(), row.classOrdinal(), row.orbitSize(), row.symmetry());
        }

        Line(RepresentativeRow row) {
            this("class_ordinal", row.classOrdinal(), row.placement(), null, row.orbitSize(), row.symmetry());
        }

        void csv(AsciiBuffer out) {
            out.append(number).append(',');
            if (placement.indexOf(' ') >= 0) {
                out.append('"').append(placement).append('"');
            } else {
                out.append(placement);
            }
            if (classOrdinal != null) {
                out.append(',').append(classOrdinal.longValue());
            }
            out.append(',').append(orbitSize).append(',').append(symmetry).append('\n');
        }

        void json(AsciiBuffer out) {
            out.append("{\"")
                    .append(numberName)
                    .append("\":")
                    .append(number)
                    .append(",\"placement\":\"")
                    .append(placement)
                    .append('"');
            if (classOrdinal != null) {
                out.append(",\"class_ordinal\":").append(classOrdinal.longValue());
            }
            out.append(",\"orbit_size\":")
                    .append(orbitSize)
                    .append(",\"symmetry\":\"")
                    .append(symmetry)
                    .append("\"}");
        }
    }

    private static List<ManifestEntry> write(
            Path folder,
            String name,
            BoardSummary summary,
            String arrayName,
            String csvHeader,
            Consumer<Consumer<Line>> rows)
            throws IOException {
        try (AtomicReportFile json = new AtomicReportFile(folder.resolve(name + ".json"));
                AtomicReportFile csv = new AtomicReportFile(folder.resolve(name + ".csv"))) {
            OutputStream jsonOut = json.stream();
            OutputStream csvOut = csv.stream();
            AsciiBuffer jsonLines = new AsciiBuffer(FLUSH_AT * 2);
            AsciiBuffer csvLines = new AsciiBuffer(FLUSH_AT * 2);
            jsonLines
                    .append("{\"n\":")
                    .append(summary.n())
                    .append(",\"total_solutions\":")
                    .append(summary.totalSolutions())
                    .append(",\"fundamental_solutions\":")
                    .append(summary.fundamentalSolutions())
                    .append(",\"")
                    .append(arrayName)
                    .append("\":[");
            csvLines.append(csvHeader).append('\n');
            long[] count = {0};
            try {
                rows.accept(line -> {
                    jsonLines.append(count[0]++ == 0 ? "\n" : ",\n");
                    line.json(jsonLines);
                    line.csv(csvLines);
                    try {
                        if (jsonLines.length() >= FLUSH_AT) {
                            jsonLines.drainTo(jsonOut);
                        }
                        if (csvLines.length() >= FLUSH_AT) {
                            csvLines.drainTo(csvOut);
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            jsonLines.append(count[0] > 0 ? "\n]}\n" : "]}\n");
            jsonLines.drainTo(jsonOut);
            csvLines.drainTo(csvOut);
            return List.of(json.commit(), csv.commit());
        }
    }
}
