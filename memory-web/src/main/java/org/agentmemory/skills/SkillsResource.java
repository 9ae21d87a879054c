package org.agentmemory.skills;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.VersionConflictException;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.skills.Skill;
import org.agentmemory.api.skills.SkillHit;
import org.agentmemory.api.skills.SkillInput;
import org.agentmemory.api.skills.SkillRegistry;
import org.agentmemory.api.skills.SkillSource;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.Problem;
import org.agentmemory.rest.Problems;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.security.Audited;
import org.agentmemory.security.OutOfScopeException;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * An agent's skills over REST (issue 35 item 2; spec §9.1, §9.3 branch 2), always in the caller's tenant. A token
 * narrowed to an agent reaches that agent's skills only; writes need a token not narrowed to a user (skills are an
 * agent's, not a user's). Versions travel as ETags; a {@code PUT} with {@code If-Match} changes only that version.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 32 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("skills")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Skills", description = "What an agent knows how to do: instructions, tools and examples, found by query")
@Timeout(10_000)
@Bulkhead(32)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class SkillsResource {

    private static final String AGENT = "The agent; required unless the token is narrowed to one.";
    private static final String NO_SKILL = "The agent has no such skill in the tenant";

    /**
     * Body of {@code POST /skills} and {@code PUT /skills/{skillId}}.
     *
     * @param agentId      the agent
     * @param name         as {@link SkillInput}
     * @param description  as {@link SkillInput}
     * @param instructions as {@link SkillInput}
     * @param tools        as {@link SkillInput}
     * @param examples     as {@link SkillInput}
     */
    @Schema(description = "A skill of an agent, as written.")
    public record SkillBody(
            @Schema(description = AGENT, nullable = true) String agentId,

            @Schema(description = "The name, 1 to 200 code points without control characters; unique within the agent.")
            String name,

            @Schema(description = "What the skill is for, 1 to 2,000 code points.")
            String description,

            @Schema(description = "How to apply it, 1 to 16,000 code points; line breaks allowed.")
            String instructions,

            @Schema(description = "Tool names it uses, at most 50; absent = none.", nullable = true)
            List<String> tools,

            @Schema(description = "Examples of applying it, at most 20 of 1 to 4,000 code points.", nullable = true)
            List<String> examples) {}

    /**
     * Body of {@code POST /skills/search} and {@code POST /skills/relevant}.
     *
     * @param agentId   the agent
     * @param query     the query
     * @param topK      hits of a search, 1 to 100 (default 5)
     * @param maxSkills skills of the section, 0 to 100 (default 3)
     */
    @Schema(description = "A query over an agent's skills.")
    public record SkillQuery(
            @Schema(description = AGENT, nullable = true) String agentId,

            @Schema(description = "Words or a question; blank finds nothing.")
            String query,

            @Schema(description = "Hits of /skills/search, 1 to 100; default 5.", nullable = true)
            Integer topK,

            @Schema(
                    description = "Skills of /skills/relevant, 0 to 100; default 3 (spec skill_max_context).",
                    nullable = true)
            Integer maxSkills) {}

    @EJB
    SkillRegistry skills;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @Context
    UriInfo uri;

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Create a skill",
            description = "A manual skill of the agent, version 1. Names are unique within the agent; the same skill"
                    + " sent again (same name and fields) answers the stored one with 200.")
    @APIResponse(
            responseCode = "201",
            description = "Created; Location names the skill, ETag is its version",
            content = @Content(schema = @Schema(implementation = Skill.class)))
    @APIResponse(
            responseCode = "200",
            description = "The same skill was stored before; the stored one",
            content = @Content(schema = @Schema(implementation = Skill.class)))
    @APIResponse(
            responseCode = "400",
            description = "A field is missing or breaks a rule (named: name, tools[2], …), or agentId breaks the id"
                    + " rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "409",
            description = "The agent already has another skill of that name (field name)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response create(SkillBody body) throws MemoryException {
        bodies.check(body);
        Instant started = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Skill created = skills.createSkill(tenants.current(), writer(body.agentId()), input(body));
        if (created.createdAt().isBefore(started)) { // the same skill sent again
            return Response.ok(created).tag(Params.etag(created.version())).build();
        }
        URI location = uri.getBaseUriBuilder()
                .path("skills")
                .path(created.skillId())
                .queryParam("agentId", created.agentId())
                .build();
        return Response.created(location)
                .entity(created)
                .tag(Params.etag(created.version()))
                .build();
    }

    @GET
    @Operation(summary = "List an agent's skills", description = "Newest first, keyset-paged; optionally one source.")
    @APIResponse(
            responseCode = "200",
            description = "One page of skills; pass nextCursor back as cursor for the next",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties = {
                                                @SchemaProperty(
                                                        name = "items",
                                                        type = SchemaType.ARRAY,
                                                        implementation = Skill.class,
                                                        description = "The skills, newest first."),
                                                @SchemaProperty(
                                                        name = "nextCursor",
                                                        type = SchemaType.STRING,
                                                        nullable = true,
                                                        description =
                                                                "Cursor of the next page, or null on the last page.")
                                            })))
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing or breaks the id rules, source is not manual or extracted, limit is"
                    + " not 1 to 1000, or cursor is not ours",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response list(
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = "manual or extracted; absent = both") @QueryParam("source") String source,
            @Parameter(description = "Page size, 1 to 1000 (default 100)") @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor)
            throws MemoryException {
        return Response.ok(skills.listSkills(
                        tenants.current(),
                        tenants.agentId("agentId", agentId),
                        source(source),
                        Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE),
                        cursor))
                .build();
    }

    @GET
    @Path("{skillId}")
    @Operation(summary = "Read a skill", description = "The skill; its ETag is its version.")
    @APIResponse(
            responseCode = "200",
            description = "The skill",
            content = @Content(schema = @Schema(implementation = Skill.class)))
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing or breaks the id rules, or skillId breaks them",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "404",
            description = NO_SKILL,
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response read(
            @Parameter(description = "The skill's UUID") @PathParam("skillId") String skillId,
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId)
            throws MemoryException {
        Skill skill = skills.getSkill(tenants.current(), tenants.agentId("agentId", agentId), skillId);
        return Response.ok(skill).tag(Params.etag(skill.version())).build();
    }

    @PUT
    @Path("{skillId}")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Replace a skill",
            description = "Every field is replaced (a rename included) and the skill becomes manual, so the dream"
                    + " cycle leaves it alone. With If-Match: only if the version is still the one read (412"
                    + " otherwise); without: unconditionally. The version grows by one when anything changed.")
    @APIResponse(
            responseCode = "200",
            description = "The skill after the change; the ETag is its version",
            content = @Content(schema = @Schema(implementation = Skill.class)))
    @APIResponse(
            responseCode = "400",
            description =
                    "A field is missing or breaks a rule, agentId or skillId breaks the id rules, or If-Match is not an"
                            + " ETag of this API",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "404",
            description = NO_SKILL,
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "409",
            description = "Another skill of the agent has the new name (field name)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "412",
            description = "If-Match does not name the current version; nothing written",
            headers =
                    @Header(
                            name = "ETag",
                            description = "The version stored now",
                            schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response replace(
            @Parameter(description = "The skill's UUID") @PathParam("skillId") String skillId,
            @Parameter(description = "The ETag of a previous read, e.g. \"3\"") @HeaderParam("If-Match") String ifMatch,
            SkillBody body)
            throws MemoryException {
        bodies.check(body);
        long expected = Params.ifMatchVersion(ifMatch);
        try {
            Skill updated =
                    skills.updateSkill(tenants.current(), writer(body.agentId()), skillId, input(body), expected);
            return Response.ok(updated).tag(Params.etag(updated.version())).build();
        } catch (VersionConflictException e) {
            return Problems.of(412, e.kind(), "Precondition failed", e.getMessage(), "If-Match", "version", uri)
                    .tag(Params.etag(e.actualVersion()))
                    .build();
        }
    }

    @DELETE
    @Path("{skillId}")
    @Audited("skill.delete")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(summary = "Delete a skill", description = "The skill is gone from the registry and from search.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing or breaks the id rules, or skillId breaks them",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "404",
            description = NO_SKILL,
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response delete(
            @Parameter(description = "The skill's UUID") @PathParam("skillId") String skillId,
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId)
            throws MemoryException {
        skills.deleteSkill(tenants.current(), writer(agentId), skillId);
        return Response.noContent().build();
    }

    @POST
    @Path("search")
    @Operation(
            summary = "Search an agent's skills",
            description = "Hybrid: full text over name, description and instructions, and the skills' vectors,"
                    + " fused by reciprocal rank.")
    @APIResponse(
            responseCode = "200",
            description = "{\"hits\": [...]}, best first",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "hits",
                                                            type = SchemaType.ARRAY,
                                                            implementation = SkillHit.class,
                                                            description = "At most topK skills, best first."))))
    @APIResponse(
            responseCode = "400",
            description = "topK is not 1 to 100, the query holds a NUL, or agentId breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response search(SkillQuery body) throws MemoryException {
        bodies.check(body);
        int topK = body.topK() == null ? 5 : body.topK();
        return Response.ok(Map.of(
                        "hits",
                        skills.searchSkills(
                                tenants.current(), tenants.agentId("agentId", body.agentId()), body.query(), topK)))
                .build();
    }

    @POST
    @Path("relevant")
    @Operation(
            summary = "The skills section of a context",
            description = "The agent's best skills for the query as the <relevant_skills> section of an assembled"
                    + " context shows them (spec §9.3 get_relevant_skills): ### name, description, Tools:, then"
                    + " Instructions:, skills separated by a blank line.")
    @APIResponse(
            responseCode = "200",
            description = "{\"skills\": \"...\"}; empty when nothing matched",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "skills",
                                                            type = SchemaType.STRING,
                                                            description = "The section text, or empty."))))
    @APIResponse(
            responseCode = "400",
            description = "maxSkills is not 0 to 100, the query holds a NUL, or agentId breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response relevant(SkillQuery body) throws MemoryException {
        bodies.check(body);
        int max = body.maxSkills() == null ? 3 : body.maxSkills();
        return Response.ok(Map.of(
                        "skills",
                        skills.relevantSkills(
                                tenants.current(), tenants.agentId("agentId", body.agentId()), body.query(), max)))
                .build();
    }

    /** @return the agent a write names, narrowed by the token; a token narrowed to a user is refused */
    private String writer(String agentId) {
        if (tenants.caller().user() != null) {
            throw new OutOfScopeException(null, "Skills are an agent's; a token narrowed to a user cannot write them.");
        }
        return tenants.agentId("agentId", agentId);
    }

    private static SkillInput input(SkillBody body) {
        return new SkillInput(body.name(), body.description(), body.instructions(), body.tools(), body.examples());
    }

    private static SkillSource source(String value) throws InvalidInputException {
        if (value == null) {
            return null;
        }
        for (SkillSource s : SkillSource.values()) {
            if (s.name().equals(value.strip().toUpperCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new InvalidInputException(
                "source", "one-of", "source is '" + value + "'; it must be manual or extracted.");
    }
}
