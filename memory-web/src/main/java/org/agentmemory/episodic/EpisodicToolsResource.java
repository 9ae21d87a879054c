package org.agentmemory.episodic;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.episodic.EpisodicMemory;
import org.agentmemory.api.episodic.RecallRequest;
import org.agentmemory.rest.QueryShortening;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The episodic agent toolkit (spec §10.9, prefix {@code ep}) as HTTP tools: JSON arguments in, the plain text
 * a model reads out, so an agent framework can expose each endpoint directly as a tool.
 *
 * <p>Fault tolerance: 30,000 ms, 32 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("tools/episodic")
@ApplicationScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.TEXT_PLAIN + ";charset=UTF-8")
@Tag(name = "Agent tools", description = "Episodic memory tools with text answers (spec §10.9)")
@Timeout(30_000)
@Bulkhead(32)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class EpisodicToolsResource {

    @EJB
    EpisodicMemory memory;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @POST
    @Path("search_episodic_memory")
    @Operation(
            summary = "search_episodic_memory",
            description =
                    "Past experiences similar to the query (hybrid recall), as"
                            + " 'Found n relevant past experiences:' with one numbered block each, or 'No relevant past experiences found.'")
    @APIResponse(responseCode = "200", description = "text/plain")
    @APIResponse(
            responseCode = "400",
            description = "namespace or query is missing, query is blank, topK is not 1 to"
                    + " 100, or a namespace id breaks a rule")
    public Response search(EpisodicRequests.ToolSearch body) throws MemoryException {
        bodies.check(body);
        return QueryShortening.mark(
                        Response.ok(memory.searchPastExperiences(
                                body.namespace().toNamespace(tenants, "namespace."),
                                body.query(),
                                body.topK() == null ? RecallRequest.DEFAULT_TOP_K : body.topK(),
                                body.failuresOnly() != null && body.failuresOnly())),
                        body.query())
                .build();
    }

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("record_lesson")
    @Operation(
            summary = "record_lesson",
            description = "Stores a lesson (category decision, importance 5 by default) and"
                    + " answers 'Lesson recorded (id …, importance n): …'.")
    @APIResponse(responseCode = "200", description = "text/plain")
    @APIResponse(
            responseCode = "400",
            description = "namespace, situation or lesson is missing, situation or lesson"
                    + " is blank, or a namespace id breaks a rule")
    public Response recordLesson(EpisodicRequests.Lesson body) throws MemoryException {
        bodies.check(body);
        return Response.ok(memory.recordLessonTool(
                        body.namespace().toNamespace(tenants, "namespace."),
                        body.situation(),
                        body.lesson(),
                        body.category(),
                        body.importance()))
                .build();
    }

    @POST
    @Path("get_warnings")
    @Operation(
            summary = "get_warnings",
            description = "Past failures to avoid for the context, or 'No past failures to warn about.'")
    @APIResponse(responseCode = "200", description = "text/plain")
    @APIResponse(responseCode = "400", description = "namespace is missing, or a namespace id breaks a rule")
    public Response warnings(EpisodicRequests.ToolWarnings body) throws MemoryException {
        bodies.check(body);
        return QueryShortening.mark(
                        Response.ok(memory.warningsTool(
                                body.namespace().toNamespace(tenants, "namespace."), body.context())),
                        body.context())
                .build();
    }
}
