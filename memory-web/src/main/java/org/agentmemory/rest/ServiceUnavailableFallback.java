package org.agentmemory.rest;

import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.faulttolerance.ExecutionContext;
import org.eclipse.microprofile.faulttolerance.FallbackHandler;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * The fallback of every resource method: when a fault-tolerance policy gives up (the call timed out, or
 * the bulkhead is full), answer 503 with {@code Retry-After} and a problem body instead of an error page.
 * Business failures (400, 404, 409) are not fallbacks: resources list the policy exceptions in
 * {@code applyOn}.
 */
@Dependent
public class ServiceUnavailableFallback implements FallbackHandler<Response> {

    @Inject
    RestSettings settings;

    @Override
    public Response handle(ExecutionContext context) {
        return response(context.getFailure(), settings.retryAfterSeconds(), null);
    }

    /**
     * @param failure           what the policy threw
     * @param retryAfterSeconds the Retry-After value
     * @param uri               the request URI, or {@code null}
     * @return a 503 problem
     */
    static Response response(Throwable failure, int retryAfterSeconds, UriInfo uri) {
        String detail;
        if (failure instanceof TimeoutException) {
            detail = "The request took longer than its time limit; it may still complete on the server. Retry in "
                    + retryAfterSeconds + " s with the same ids (turnId, for turns: retries are then idempotent).";
        } else if (failure instanceof BulkheadException) {
            detail = "Too many concurrent requests for this operation; try again in " + retryAfterSeconds + " s.";
        } else {
            detail = "The operation is temporarily unavailable (" + (failure == null ? "unknown" : failure.getClass().getSimpleName())
                    + "); try again in " + retryAfterSeconds + " s.";
        }
        return Problems.of(503, "service-unavailable", "Service unavailable", detail, null, null, uri)
                .header("Retry-After", Integer.toString(retryAfterSeconds))
                .build();
    }
}
