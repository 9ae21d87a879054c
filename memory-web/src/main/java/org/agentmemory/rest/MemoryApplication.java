package org.agentmemory.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.info.License;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * The REST API, version 1, under {@code /api/v1}. Resources and providers are discovered by scanning.
 * The OpenAPI document is served by the server at {@code /openapi}.
 */
@ApplicationPath("/api/v1")
@OpenAPIDefinition(
        info =
                @Info(
                        title = "Agent Memory",
                        version = "1",
                        description =
                                "Conversation memory for AI agents: histories of turns keyed by (tenant, chatbot, user, session),"
                                        + " normalized and token-counted on write. Errors are RFC 9457 application/problem+json.",
                        license = @License(name = "Apache-2.0")),
        security = @SecurityRequirement(name = "bearer"))
@SecurityScheme(
        securitySchemeName = "bearer",
        type = SecuritySchemeType.HTTP,
        scheme = "bearer",
        bearerFormat = "JWT",
        description = "A signed JWT (RS256 or ES256) naming the caller's tenant (claim tenant) and roles (claim groups:"
                + " memory-reader, memory-writer, memory-admin, memory-operator; each includes the ones before it)."
                + " Each operation's security requirement names the least role it needs. Without a valid token: 401;"
                + " without the role: 403. Optional claims memory_user and memory_agent narrow the token to one user"
                + " or agent: another user's ids answer 404, a request naming another user 403 (out-of-scope).")
public class MemoryApplication extends Application {}
