package org.agentmemory.episodic;

import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.agentmemory.api.episodic.Episode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The answers of the episode-recording operations: 201 for a new episode, 200 for one stored before. */
final class EpisodeResponses {

    /** The OpenAPI description of the 200 answer of a recording operation. */
    static final String ALREADY_STORED =
            "An identical episode (the same content key in the namespace) was stored before; the stored episode"
                    + " and its id, nothing new stored";

    private EpisodeResponses() {}

    /**
     * The answer of {@code GET /episodes/count}.
     *
     * @param count episodes matching the namespace
     */
    @Schema(description = "How many episodes a namespace holds.")
    record EpisodeCount(
            @Schema(description = "Episodes matching the namespace, expired ones not yet deleted included.")
            long count) {}

    /**
     * @return the instant a recording request began, at the precision episodes are stamped with (microseconds),
     *         rounded down so that an episode stored by the request is never older
     */
    static Instant asked() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * 201 with a Location for an episode this request stored; 200 with the stored episode when identical content
     * (the same content key in the namespace) was stored before the request began (issue 31 item 6). An
     * identical episode stored by a concurrent request while this one ran also answers 201.
     */
    static Response recorded(Episode episode, Instant asked) {
        if (episode.createdAt() != null && episode.createdAt().isBefore(asked)) {
            return Response.ok(episode).build();
        }
        return Response.created(URI.create("episodes/" + episode.episodeId()))
                .entity(episode)
                .build();
    }
}
