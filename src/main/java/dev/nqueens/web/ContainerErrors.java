package dev.nqueens.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The errors the servlet container hands to its error page ({@code /error}) instead of Spring MVC:
 * a method Tomcat refuses itself (TRACE), an exception outside any controller. Answered as problems
 * like every other error, in place of Boot's error controller (whose JSON is not a problem); a
 * request for {@code /error} itself is not found.
 */
@RestController
@Profile(Serve.PROFILE)
class ContainerErrors implements ErrorController {

    @RequestMapping("/error")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer number ? HttpStatus.resolve(number) : null;
        if (status == null || !status.isError()) {
            throw Problems.notFound("no page is named '" + request.getRequestURI() + "'");
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                status,
                status.is5xxServerError()
                        ? Problems.FAILED
                        : "the server refused this request: " + status.getReasonPhrase());
        if (request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String uri) {
            problem.setInstance(URI.create(uri));
        }
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
