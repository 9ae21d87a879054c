package org.agentmemory.security;

import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.agentmemory.rest.Problems;

/** 403 problem for {@link OutOfScopeException}: names the field and the rule {@code token-scope}. */
@Provider
public class OutOfScopeMapper implements ExceptionMapper<OutOfScopeException> {

    @Context
    UriInfo uri;

    @Override
    public Response toResponse(OutOfScopeException e) {
        return Problems.of(403, "out-of-scope", "Forbidden", e.getMessage(), e.field(), "token-scope", uri)
                .build();
    }
}
