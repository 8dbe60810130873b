package dev.nqueens.export;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** One exported file as listed in {@code manifest.json}. */
@JsonPropertyOrder({"name", "bytes", "sha256"})
public record ManifestEntry(String name, long bytes, String sha256) {}
