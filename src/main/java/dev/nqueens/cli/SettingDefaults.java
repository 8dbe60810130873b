package dev.nqueens.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ResourceBundle;
import org.yaml.snakeyaml.Yaml;

/**
 * The defaults of the settings as the jar's {@code application.yml} (and, for {@code serve},
 * {@code application-serve.yml}) write them, the only place they are written, for the help texts: an option's description names its setting and shows
 * {@code ${bundle:default.nqueens.sizes}}. Read only when help is asked for.
 */
final class SettingDefaults extends ResourceBundle {

    /** Keys are {@code default.} and the setting, so that none is taken for a description key of picocli's. */
    private static final String PREFIX = "default.";

    private final Map<String, Object> values = new LinkedHashMap<>();

    SettingDefaults() {
        for (String file : new String[] {"/application.yml", "/application-serve.yml"}) {
            try (InputStream yaml = SettingDefaults.class.getResourceAsStream(file)) {
                if (yaml != null) {
                    flatten("", new Yaml().load(yaml));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void flatten(String prefix, Object node) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> flatten(prefix.isEmpty() ? String.valueOf(key) : prefix + "." + key, value));
        } else {
            values.put(PREFIX + prefix, node == null || node.toString().isEmpty() ? "none" : node.toString());
        }
    }

    @Override
    protected Object handleGetObject(String key) {
        return values.get(key);
    }

    @Override
    public Enumeration<String> getKeys() {
        return Collections.enumeration(values.keySet());
    }
}
