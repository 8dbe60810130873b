package dev.nqueens.web;

import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's own error responses — requests it refuses before any application code runs, such as a
 * path that climbs above the root ({@code /../../etc/passwd}) or holds an encoded backslash — as
 * problem details like the application's, with its security headers, instead of Tomcat's HTML page.
 */
public final class ProblemReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        org.springframework.http.HttpStatus known = org.springframework.http.HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        try {
            SecurityHeaders.addTo(response);
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"title\":\"" + title + "\",\"status\":" + status
                        + ",\"detail\":\"the server refused this request before reading it\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client went away
        }
    }
}
