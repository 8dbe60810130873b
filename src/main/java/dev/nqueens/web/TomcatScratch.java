package dev.nqueens.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.util.FileSystemUtils;

/**
 * Tomcat's scratch folders (its base directory and an empty document root) in one temporary folder
 * of this process, deleted when serve stops. Left to Boot, every start of serve made
 * {@code /tmp/tomcat.PORT.*} and {@code /tmp/tomcat-docbase.PORT.*} and left them behind: they are
 * marked to be deleted at exit, which deletes no folder that is not empty.
 */
class TomcatScratch implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, DisposableBean {

    private Path folder;

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        try {
            folder = Files.createTempDirectory("nqueens-serve-"); // readable by its owner alone
            factory.setBaseDirectory(
                    Files.createDirectory(folder.resolve("tomcat")).toFile());
            factory.setDocumentRoot(
                    Files.createDirectory(folder.resolve("docbase")).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make Tomcat's scratch folder: " + e.getMessage(), e);
        }
    }

    /** Called once Tomcat has stopped (the web server stops before the beans are destroyed). */
    @Override
    public void destroy() throws IOException {
        if (folder != null) {
            FileSystemUtils.deleteRecursively(folder);
        }
    }
}
