package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import org.agentmemory.it.support.Api;
import org.junit.jupiter.api.Test;

/**
 * The operational surface: readiness checks the database on both servers, and the OpenAPI document
 * describes the resources that exist.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it compares the PostgreSQL and H2 servers and reads WildFly's management port.
 */
class HealthAndOpenApiIT {

    @Test
    void readinessReportsTheDatabaseOnBothServers() {
        for (Api api : List.of(Api.postgres(), Api.h2())) {
            Api.Response ready = api.send(HttpRequest.newBuilder(URI.create(api.management() + "/health/ready"))
                    .GET());
            assertThat(ready.status()).as(api.name()).isEqualTo(200);
            JsonNode check = null;
            for (JsonNode c : ready.json().get("checks")) {
                if (c.get("name").asText().equals("memory-database")) {
                    check = c;
                }
            }
            assertThat(check).as("memory-database check on " + api.name()).isNotNull();
            assertThat(check.get("status").asText()).isEqualTo("UP");
            assertThat(check.at("/data/database").asText()).isEqualTo(api.name().equals("h2") ? "H2" : "PostgreSQL");
            JsonNode security = null;
            for (JsonNode c : ready.json().get("checks")) {
                if (c.get("name").asText().equals("memory-security")) {
                    security = c;
                }
            }
            assertThat(security).as("memory-security check on " + api.name()).isNotNull();
            assertThat(security.at("/data/mode").asText()).isEqualTo("jwt");
            assertThat(security.at("/data/developmentKeys").asBoolean()).isTrue();
            assertThat(ready.body()).doesNotContain(api.token());
        }
    }

    @Test
    void theOpenApiDocumentAndHealthNeedNoTokenAndDocumentTheBearerScheme() {
        Api api = Api.h2();
        Api.Response doc = api.sendAsIs(HttpRequest.newBuilder(URI.create(api.base() + "/openapi?format=JSON"))
                .GET()
                .build());
        assertThat(doc.status()).isEqualTo(200);
        assertThat(doc.json().at("/components/securitySchemes/bearer/scheme").asText())
                .isEqualTo("bearer");
        assertThat(doc.json()
                        .at("/paths/~1api~1v1~1turns/post/security/0/bearer/0")
                        .asText())
                .isEqualTo("memory-writer");
        assertThat(api.sendAsIs(HttpRequest.newBuilder(URI.create(api.management() + "/health/ready"))
                                .GET()
                                .build())
                        .status())
                .isEqualTo(200);
    }

    @Test
    void openApiDocumentListsEveryResourcePath() {
        Api api = Api.postgres();
        Api.Response doc = api.send(HttpRequest.newBuilder(URI.create(api.base() + "/openapi?format=JSON"))
                .GET());
        assertThat(doc.status()).isEqualTo(200);
        List<String> paths = new ArrayList<>();
        doc.json().get("paths").fieldNames().forEachRemaining(paths::add);
        assertThat(paths)
                .contains(
                        "/api/v1/conversations",
                        "/api/v1/conversations/lookup",
                        "/api/v1/conversations/{id}",
                        "/api/v1/conversations/{id}/turns",
                        "/api/v1/conversations/{id}/turns/batch",
                        "/api/v1/conversations/{id}/turns/{sequence}",
                        "/api/v1/conversations/{id}/metadata",
                        "/api/v1/conversations/{id}/export",
                        "/api/v1/turns",
                        "/api/v1/turns/batch",
                        "/api/v1/chatbots/conversations",
                        "/api/v1/chatbots/stats",
                        "/api/v1/chatbots/users",
                        "/api/v1/import",
                        "/api/v1/export",
                        "/api/v1/turns/from-ai-message",
                        "/api/v1/turns/usage",
                        "/api/v1/answers",
                        "/api/v1/conversations/{id}/omissions",
                        "/api/v1/conversations/{id}/omissions/{contentId}");
        assertThat(doc.json()
                        .at("/paths/~1api~1v1~1conversations~1{id}~1metadata/patch")
                        .isMissingNode())
                .isFalse();
        JsonNode addTurn = doc.json().at("/paths/~1api~1v1~1turns/post");
        assertThat(addTurn.at("/responses/201").isMissingNode()).isFalse();
        assertThat(addTurn.at("/responses/400").isMissingNode()).isFalse();
    }
}
