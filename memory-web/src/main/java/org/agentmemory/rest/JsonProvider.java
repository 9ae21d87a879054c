package org.agentmemory.rest;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;

/**
 * Reads and writes JSON (and problem+json) with the API's strict mapper ({@link RestJson}), the same on
 * every server: the application's provider takes precedence over whatever JSON binding the server ships.
 */
@Provider
@Consumes({MediaType.APPLICATION_JSON, "application/*+json"})
@Produces({MediaType.APPLICATION_JSON, "application/*+json"})
public class JsonProvider extends JacksonJsonProvider {

    public JsonProvider() {
        super(RestJson.mapper());
    }
}
