package dev.nqueens.settings;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The published counts for n = 1..27 (OEIS A000170, A002562, A032522, A033148), shipped in the
 * jar: every computed size is checked against them.
 */
public final class KnownCounts {

    private static final String RESOURCE = "/dev/nqueens/known-counts.csv";

    /** The known values of one size. */
    public record Known(
            int n,
            long totalSolutions,
            long fundamentalSolutions,
            long rot90Classes,
            long rot180Classes,
            long asymmetricClasses) {

        /** The values in the form counts are compared in. */
        public ClassCounts counts() {
            return new ClassCounts(
                    totalSolutions, fundamentalSolutions, rot90Classes, rot180Classes, asymmetricClasses);
        }
    }

    private final Map<Integer, Known> bySize;

    private KnownCounts(Map<Integer, Known> bySize) {
        this.bySize = bySize;
    }

    public static KnownCounts load() {
        try (InputStream in = KnownCounts.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads the CSV form {@code n,total_solutions,fundamental_solutions,rot90,rot180,asymmetric}. */
    public static KnownCounts parse(InputStream csv) throws IOException {
        Map<Integer, Known> bySize = new TreeMap<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(csv, StandardCharsets.UTF_8));
        reader.readLine();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",");
            Known known = new Known(
                    Integer.parseInt(f[0]),
                    Long.parseLong(f[1]),
                    Long.parseLong(f[2]),
                    Long.parseLong(f[3]),
                    Long.parseLong(f[4]),
                    Long.parseLong(f[5]));
            bySize.put(known.n(), known);
        }
        return new KnownCounts(bySize);
    }

    public Optional<Known> of(int n) {
        return Optional.ofNullable(bySize.get(n));
    }
}
