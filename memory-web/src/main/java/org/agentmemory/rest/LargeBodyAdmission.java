package org.agentmemory.rest;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.agentmemory.health.LargeBodyLimiter;

/**
 * Admits requests with a large body (over {@value #LARGE_BODY_BYTES} bytes, or chunked) through the server-wide
 * {@link LargeBodyLimiter}, holding the slot in a {@code try}/{@code finally} around the whole request: the slot
 * comes back on every path, including a client that closes its socket mid-body, where no JAX-RS response filter
 * ever runs (issue 31 item 7). A request that finds no slot within {@value #WAIT_MS} ms is marked, and
 * {@link BodyLimitFilter} answers it 503 with {@code Retry-After} and a problem body.
 *
 * <p>Not limited: bodies over the endpoint's maximum (answered 413 before they are read), and {@code POST
 * /import}, which streams in bounded batches behind its own bulkhead.
 */
@WebFilter(urlPatterns = "/api/v1/*", asyncSupported = true)
public class LargeBodyAdmission extends HttpFilter {

    private static final long serialVersionUID = 1L;

    /** Bodies over this many bytes (or of unknown length) need a slot. */
    public static final long LARGE_BODY_BYTES = 256 * 1024;

    /** How long a request with a large body waits for a slot before its 503, ms. */
    public static final long WAIT_MS = 30_000;

    /** Request attribute set when no slot was free in time; {@link BodyLimitFilter} answers 503. */
    static final String REFUSED = LargeBodyAdmission.class.getName() + ".refused";

    @Inject
    transient LargeBodyLimiter limiter;

    @Inject
    transient RestSettings settings;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!needsSlot(request)) {
            chain.doFilter(request, response);
            return;
        }
        Optional<LargeBodyLimiter.Permit> permit = limiter.acquire(Duration.ofMillis(WAIT_MS));
        if (permit.isEmpty()) {
            request.setAttribute(REFUSED, Boolean.TRUE);
            chain.doFilter(request, response);
            return;
        }
        try (LargeBodyLimiter.Permit slot = permit.get()) {
            chain.doFilter(request, response);
        }
    }

    private boolean needsSlot(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.startsWith("/api/v1/import")) {
            return false;
        }
        long declared = request.getContentLengthLong();
        if (declared >= 0) {
            return declared > LARGE_BODY_BYTES && declared <= settings.maxBodyBytes();
        }
        return request.getHeader("Transfer-Encoding") != null;
    }
}
