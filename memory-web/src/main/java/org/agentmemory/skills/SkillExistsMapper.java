package org.agentmemory.skills;

import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.agentmemory.api.skills.SkillExistsException;
import org.agentmemory.rest.Problems;

/** 409: the agent already has a skill of that name; the problem names the field {@code name}. */
@Provider
public class SkillExistsMapper implements ExceptionMapper<SkillExistsException> {

    @Context
    UriInfo uri;

    @Override
    public Response toResponse(SkillExistsException e) {
        return Problems.of(409, e.kind(), "Skill already exists", e.getMessage(), "name", "unique", uri)
                .build();
    }
}
