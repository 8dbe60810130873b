package dev.nqueens.web;

import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error of the pages, files and API is an RFC 9457 problem ({@code application/problem+json}):
 * Spring MVC's own (a non-numeric size, an unknown path) through the base class, ours through
 * {@link #badRequest} and {@link #notFound}.
 */
@RestControllerAdvice
@Profile(Serve.PROFILE)
class Problems extends ResponseEntityExceptionHandler {

    static ErrorResponseException badRequest(String detail) {
        return problem(HttpStatus.BAD_REQUEST, detail);
    }

    static ErrorResponseException notFound(String detail) {
        return problem(HttpStatus.NOT_FOUND, detail);
    }

    private static ErrorResponseException problem(HttpStatus status, String detail) {
        return new ErrorResponseException(status, ProblemDetail.forStatusAndDetail(status, detail), null);
    }
}
