package dev.nqueens.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Headers on every response: a Content-Security-Policy the pages satisfy (no script at all; the
 * style sheet comes from this server; the plot and the boards are inline SVG, which needs no
 * source), {@code nosniff}, no framing, no referrer; errors included.
 */
@Component
@Profile(Serve.PROFILE)
class SecurityHeaders extends OncePerRequestFilter {

    static final String POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none';"
            + " form-action 'none'; frame-ancestors 'none'";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        addTo(response);
        chain.doFilter(request, response);
    }

    /** The error page's dispatch too: an error Tomcat raised before any filter ran (TRACE) gets them there. */
    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    static void addTo(HttpServletResponse response) {
        response.setHeader("Content-Security-Policy", POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
    }
}
