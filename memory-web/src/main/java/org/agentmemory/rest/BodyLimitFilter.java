package org.agentmemory.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Enforces the configured body limits ({@code memory.rest.max-body-bytes}, and
 * {@code memory.import.max-body-bytes} for {@code POST /import}): a declared {@code Content-Length} over the
 * limit is refused before reading, and a chunked body is counted as it is read. Either way the answer is
 * 413 with a problem body, and nothing is written.
 *
 * <p>A request that {@link LargeBodyAdmission} could not admit (every large-body slot busy for its whole wait)
 * is answered here: 503 with {@code Retry-After} and a problem body.
 */
@Provider
@PreMatching
public class BodyLimitFilter implements ContainerRequestFilter {

    @Inject
    RestSettings settings;

    @Override
    public void filter(ContainerRequestContext request) {
        UriInfo uri = request.getUriInfo();
        String path = uri.getPath();
        boolean bulk = path.startsWith(path.startsWith("/") ? "/import" : "import");
        long limit = bulk ? settings.importMaxBodyBytes() : settings.maxBodyBytes();
        int declared = request.getLength();
        if (declared > limit) {
            request.abortWith(tooLarge(limit, uri));
            return;
        }
        if (request.getProperty(LargeBodyAdmission.REFUSED) != null) {
            request.abortWith(Problems.of(
                            503,
                            "service-unavailable",
                            "Service unavailable",
                            "Too many requests with large bodies (over " + LargeBodyAdmission.LARGE_BODY_BYTES
                                    + " bytes) are being processed; try again in 5 s.",
                            null,
                            null,
                            uri)
                    .header("Retry-After", "5")
                    .build());
            return;
        }
        if (request.hasEntity()) {
            request.setEntityStream(new LimitedStream(request.getEntityStream(), limit));
        }
    }

    static Response tooLarge(long limit, UriInfo uri) {
        return Problems.of(
                        413,
                        "payload-too-large",
                        "Payload too large",
                        "The request body is larger than " + limit
                                + " bytes, the configured limit for this endpoint; split it (e.g. POST /api/v1/import for bulk"
                                + " data) or raise the limit.",
                        null,
                        null,
                        uri)
                .build();
    }

    /** Counts bytes and fails with 413 once the limit is passed. */
    static final class LimitedStream extends FilterInputStream {
        private final long limit;
        private long count;

        LimitedStream(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                add(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                add(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            add(skipped);
            return skipped;
        }

        private void add(long n) throws BodyTooLargeException {
            count += n;
            if (count > limit) {
                throw new BodyTooLargeException(limit);
            }
        }
    }

    /**
     * Thrown by the counting stream. An {@link IOException} so that JSON parsers pass it through unwrapped;
     * the exception mappers find it in any cause chain and answer 413.
     */
    public static final class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;
        private final long limit;

        BodyTooLargeException(long limit) {
            super("request body larger than " + limit + " bytes");
            this.limit = limit;
        }

        /** @return the limit that was passed, bytes */
        public long limit() {
            return limit;
        }
    }
}
