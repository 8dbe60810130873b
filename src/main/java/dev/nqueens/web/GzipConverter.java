package dev.nqueens.web;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPOutputStream;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.stereotype.Component;
import org.springframework.util.StreamUtils;

/**
 * Writes an export file gzipped as it is sent ({@link Gzipped}): what Spring MVC's resource support
 * does not do, and Tomcat's compression will not for a response with a strong ETag (it cannot give
 * the compressed bytes an ETag of their own; {@link FilesController} can). The length is not known
 * ahead, so the response is chunked; memory is the compressor's and one buffer.
 */
@Component
@Profile(Serve.PROFILE)
class GzipConverter extends AbstractHttpMessageConverter<GzipConverter.Gzipped> {

    private static final int BUFFER = 1 << 16;

    /** A response body: {@code file}, gzipped. */
    record Gzipped(ExportFile file) {}

    GzipConverter() {
        super(MediaType.ALL);
    }

    @Override
    protected boolean supports(Class<?> type) {
        return Gzipped.class.isAssignableFrom(type);
    }

    @Override
    public boolean canRead(Class<?> type, MediaType mediaType) {
        return false;
    }

    @Override
    protected Gzipped readInternal(Class<? extends Gzipped> type, HttpInputMessage input) {
        throw new HttpMessageNotReadableException("a gzipped export file is only ever written", input);
    }

    @Override
    protected void writeInternal(Gzipped body, HttpOutputMessage output) throws IOException {
        try (InputStream in = body.file().getInputStream();
                GZIPOutputStream gzip = new GZIPOutputStream(StreamUtils.nonClosing(output.getBody()), BUFFER)) {
            in.transferTo(gzip);
        }
    }
}
