package dev.nqueens.web;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error of the pages, files and API is an RFC 9457 problem ({@code application/problem+json}):
 * Spring MVC's own (a parameter of the wrong type, an unknown path, a method not allowed) through the
 * base class, ours through {@link #badRequest} and {@link #notFound}, and any other exception as a
 * 500 that says no more than that (its stack trace goes to the log, never to the client). Errors
 * that never reach Spring MVC are answered by {@link ContainerErrors}.
 */
@RestControllerAdvice
@Profile(Serve.PROFILE)
class Problems extends ResponseEntityExceptionHandler {

    static final String FAILED = "the server failed to answer this request; its log says why";

    static ErrorResponseException badRequest(String detail) {
        return problem(HttpStatus.BAD_REQUEST, detail);
    }

    static ErrorResponseException notFound(String detail) {
        return problem(HttpStatus.NOT_FOUND, detail);
    }

    private static ErrorResponseException problem(HttpStatus status, String detail) {
        return new ErrorResponseException(status, ProblemDetail.forStatusAndDetail(status, detail), null);
    }

    /**
     * An exception nothing else answers: a 500 problem, logged with its stack trace. Once the body
     * is under way (a client that went away mid-download) nothing more can be sent.
     */
    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception failure, WebRequest request, HttpServletResponse response) {
        if (response.isCommitted()) {
            logger.debug("failed after the response was committed: " + request.getDescription(false), failure);
            return null;
        }
        logger.error("failed to answer " + request.getDescription(false), failure);
        return ResponseEntity.internalServerError()
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR, FAILED));
    }
}
