package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Contexts;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The skills registry (issue 35 item 2; spec §9.1, §9.3 branch 2) on real WildFly with H2 and PostgreSQL: create, read,
 * list, versioned replace and delete with their 201, 409, 412 and 404; hybrid retrieval ranks the skill of the query's
 * domain first among fixed skills; an assembled context carries the agent's skills in its skills section within that
 * section's share of the budget; another tenant sees none of it; bad input answers 400 naming the field. Each test
 * works in a tenant of its own.
 */
class SkillsIT {

    /** Four skills of distinct domains: name, description, instructions, tool. */
    static final String[][] SKILLS = {
        {
            "Restore a PostgreSQL backup",
            "Restores a PostgreSQL database from last night's pg_dump backup.",
            "1. Stop the writers.\n2. Run pg_restore --clean on the dump.\n3. Check the row counts.",
            "pg_restore"
        },
        {
            "Roll out a Kubernetes deployment",
            "Rolls out a new image of a service on the Kubernetes cluster and watches the pods.",
            "1. kubectl set image.\n2. kubectl rollout status.\n3. kubectl rollout undo when pods crash.",
            "kubectl"
        },
        {
            "Refund a card payment",
            "Refunds a customer's card payment through Stripe.",
            "1. Find the charge.\n2. Create the refund.\n3. Email the receipt to the customer.",
            "stripe"
        },
        {
            "Write release notes",
            "Writes the release notes of a new version from the merged pull requests.",
            "1. List the merged pull requests.\n2. Group them by feature.\n3. Publish the notes.",
            "git"
        }
    };

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    /** @return a client of the server in a tenant of its own, every role */
    static Api tenant(Api server, String name) {
        return server.as(
                Tokens.of(server, unique(name), List.of("memory-admin")).sign());
    }

    static JsonNode create(Api api, String agent, String[] skill) {
        Api.Response r = api.post(
                "/skills",
                obj(
                        "agentId",
                        agent,
                        "name",
                        skill[0],
                        "description",
                        skill[1],
                        "instructions",
                        skill[2],
                        "tools",
                        List.of(skill[3])));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void createReadListReplaceAndDeleteWithVersions(Api server) {
        Api api = tenant(server, "skills-crud");
        String agent = "ops/bot \u00e9";
        Api.Response created = api.post(
                "/skills",
                obj(
                        "agentId",
                        agent,
                        "name",
                        SKILLS[0][0],
                        "description",
                        SKILLS[0][1],
                        "instructions",
                        SKILLS[0][2],
                        "tools",
                        List.of("psql", "pg_restore", "psql"),
                        "examples",
                        List.of("Restore orders from 2026-11-30")));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode skill = created.json();
        String id = skill.get("skillId").asText();
        assertThat(created.header("ETag")).isEqualTo("\"1\"");
        assertThat(created.header("Location")).contains("/skills/" + id);
        assertThat(skill.get("version").asLong()).isEqualTo(1);
        assertThat(skill.get("source").asText()).isEqualTo("manual");
        assertThat(skill.get("agentId").asText()).isEqualTo(agent);
        assertThat(texts(skill.get("tools"))).containsExactly("psql", "pg_restore");
        assertThat(texts(skill.get("examples"))).containsExactly("Restore orders from 2026-11-30");
        assertThat(skill.get("evidence")).isEmpty();

        Map<String, Object> sameBody = obj(
                "agentId",
                agent,
                "name",
                SKILLS[0][0],
                "description",
                SKILLS[0][1],
                "instructions",
                SKILLS[0][2],
                "tools",
                List.of("psql", "pg_restore"),
                "examples",
                List.of("Restore orders from 2026-11-30"));
        Api.Response retried = api.post("/skills", sameBody);
        assertThat(retried.status()).as("the same skill sent again").isEqualTo(200);
        assertThat(retried.json().get("skillId").asText()).isEqualTo(id);

        Api.Response again = api.post(
                "/skills", obj("agentId", agent, "name", SKILLS[0][0], "description", "d", "instructions", "i"));
        assertThat(again.status()).as(again.body()).isEqualTo(409);
        assertThat(again.json().get("type").asText()).endsWith("skill-exists");
        assertThat(again.json().get("field").asText()).isEqualTo("name");
        assertThat(again.json().get("detail").asText()).contains(id);

        Api.Response read = api.get("/skills/" + id + query("agentId", agent));
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json()).isEqualTo(skill);
        assertThat(read.header("ETag")).isEqualTo("\"1\"");

        Map<String, Object> change = obj(
                "agentId",
                agent,
                "name",
                SKILLS[0][0],
                "description",
                "Restores a PostgreSQL database from a pg_dump backup of any night.",
                "instructions",
                SKILLS[0][2],
                "tools",
                List.of("pg_restore"));
        Api.Response replaced = api.put("/skills/" + id, change, "If-Match", "\"1\"");
        assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
        assertThat(replaced.json().get("version").asLong()).isEqualTo(2);
        assertThat(replaced.header("ETag")).isEqualTo("\"2\"");
        assertThat(replaced.json().get("description").asText()).contains("of any night");

        Api.Response stale = api.put("/skills/" + id, change, "If-Match", "\"1\"");
        assertThat(stale.status()).as(stale.body()).isEqualTo(412);
        assertThat(stale.header("ETag")).isEqualTo("\"2\"");
        Api.Response same = api.put("/skills/" + id, change);
        assertThat(same.json().get("version").asLong()).as("nothing changed").isEqualTo(2);

        String other = create(api, agent, SKILLS[1]).get("skillId").asText();
        Map<String, Object> rename =
                obj("agentId", agent, "name", SKILLS[0][0], "description", "d", "instructions", "i");
        assertThat(api.put("/skills/" + other, rename).status()).isEqualTo(409);

        JsonNode page = api.get("/skills" + query("agentId", agent)).json();
        assertThat(texts(page.get("items"), "skillId")).containsExactly(other, id);
        assertThat(page.get("nextCursor").isNull()).isTrue();
        JsonNode first =
                api.get("/skills" + query("agentId", agent, "limit", "1")).json();
        assertThat(texts(first.get("items"), "skillId")).containsExactly(other);
        JsonNode second = api.get("/skills"
                        + query(
                                "agentId",
                                agent,
                                "limit",
                                "1",
                                "cursor",
                                first.get("nextCursor").asText()))
                .json();
        assertThat(texts(second.get("items"), "skillId")).containsExactly(id);
        assertThat(api.get("/skills" + query("agentId", agent, "source", "extracted"))
                        .json()
                        .get("items"))
                .isEmpty();

        assertThat(api.get("/skills/" + id + query("agentId", "another agent")).status())
                .isEqualTo(404);
        assertThat(api.delete("/skills/" + id + query("agentId", agent)).status())
                .isEqualTo(204);
        assertThat(api.get("/skills/" + id + query("agentId", agent)).status()).isEqualTo(404);
        assertThat(api.delete("/skills/" + id + query("agentId", agent)).status())
                .isEqualTo(404);
        assertThat(texts(api.get("/skills" + query("agentId", agent)).json().get("items"), "skillId"))
                .containsExactly(other);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void retrievalRanksTheSkillOfTheQuerysDomainFirst(Api server) {
        Api api = tenant(server, "skills-recall");
        String agent = "ops";
        for (String[] skill : SKILLS) {
            create(api, agent, skill);
        }
        String[][] cases = {
            {"how do I get the orders database back from last night's dump", SKILLS[0][0]},
            {"the new image of the checkout service: pods keep crashing", SKILLS[1][0]},
            {"a customer wants their money back for a card charge", SKILLS[2][0]},
            {"publish notes about what changed in version 2.4", SKILLS[3][0]}
        };
        for (String[] c : cases) {
            JsonNode hits = api.post("/skills/search", obj("agentId", agent, "query", c[0], "topK", 2))
                    .json()
                    .get("hits");
            assertThat(hits.size()).as(c[0]).isBetween(1, 2);
            assertThat(hits.get(0).get("skill").get("name").asText()).as(c[0]).isEqualTo(c[1]);
            assertThat(hits.get(0).get("score").asDouble()).isPositive();
        }
        String section = api.post(
                        "/skills/relevant",
                        obj("agentId", agent, "query", "restore the postgres database", "maxSkills", 1))
                .json()
                .get("skills")
                .asText();
        assertThat(section)
                .isEqualTo("### " + SKILLS[0][0] + "\n" + SKILLS[0][1] + "\nTools: " + SKILLS[0][3]
                        + "\nInstructions:\n" + SKILLS[0][2]);
        assertThat(api.post("/skills/search", obj("agentId", agent, "query", "   "))
                        .json()
                        .get("hits"))
                .isEmpty();
        assertThat(api.post("/skills/search", obj("agentId", "nobody", "query", "restore the backup"))
                        .json()
                        .get("hits"))
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anAssembledContextCarriesTheSkillsWithinTheirBudget(Api server) {
        Api api = tenant(server, "skills-assembly");
        String agent = "ops";
        for (String[] skill : SKILLS) {
            create(api, agent, skill);
        }
        // a skill whose instructions alone outgrow the section's share of a small budget
        StringBuilder steps = new StringBuilder();
        for (int i = 1; i <= 40; i++) {
            steps.append(i).append(". Check replica ").append(i).append(" of the PostgreSQL cluster.\n");
        }
        create(api, agent, new String[] {
            "Check PostgreSQL replicas",
            "Checks every replica of a PostgreSQL cluster after a restore.",
            steps.toString().strip(),
            "psql"
        });
        Contexts.addTurns(
                api,
                agent,
                "alice",
                "s1",
                List.of(obj(
                        "turnId",
                        "t1",
                        "userMessage",
                        "The orders table looks empty",
                        "assistantResponse",
                        "Checking.")));

        JsonNode roomy = assemble(api, agent, "restore the PostgreSQL orders database from the backup", 2000, 2);
        String skills = roomy.get("relevantSkills").asText();
        assertThat(skills).startsWith("### ").contains(SKILLS[0][0]).doesNotContain(SKILLS[2][0]);
        assertThat(skills.split("\n\n### ")).hasSize(2); // skillMaxContext 2
        assertThat(roomy.get("prompt").asText()).contains("<relevant_skills>\n" + skills + "\n</relevant_skills>");

        // 400 tokens: B = 360; episodic (empty) leaves its 108 to skills: 108 + 108 = 216 tokens
        JsonNode small = assemble(api, agent, "check the replicas of the PostgreSQL cluster", 400, 3);
        String cut = small.get("relevantSkills").asText();
        assertThat(cut).startsWith("### Check PostgreSQL replicas");
        assertThat(Contexts.tokens(cut)).isLessThanOrEqualTo(216);
        String full = api.post(
                        "/skills/relevant",
                        obj("agentId", agent, "query", "check the replicas of the PostgreSQL cluster", "maxSkills", 3))
                .json()
                .get("skills")
                .asText();
        assertThat(Contexts.tokens(full)).isGreaterThan(216);
        assertThat(full).startsWith(cut); // whole lines, best skill first
        assertThat(small.get("tokensUsed").asInt()).isLessThanOrEqualTo(360);

        JsonNode none = assemble(api, agent, "restore the PostgreSQL orders database", 2000, 0);
        assertThat(none.get("relevantSkills").asText()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anotherTenantSeesNoneOfIt(Api server) {
        Api mine = tenant(server, "skills-mine");
        Api theirs = tenant(server, "skills-theirs");
        String agent = "ops";
        String id = create(mine, agent, SKILLS[0]).get("skillId").asText();
        Contexts.addTurns(
                theirs,
                agent,
                "bob",
                "s",
                List.of(obj("turnId", "t1", "userMessage", "hi", "assistantResponse", "hello")));

        assertThat(theirs.get("/skills" + query("agentId", agent)).json().get("items"))
                .isEmpty();
        assertThat(theirs.get("/skills/" + id + query("agentId", agent)).status())
                .isEqualTo(404);
        assertThat(theirs.put(
                                "/skills/" + id,
                                obj("agentId", agent, "name", "x", "description", "d", "instructions", "i"))
                        .status())
                .isEqualTo(404);
        assertThat(theirs.delete("/skills/" + id + query("agentId", agent)).status())
                .isEqualTo(404);
        assertThat(theirs.post("/skills/search", obj("agentId", agent, "query", "restore the PostgreSQL backup"))
                        .json()
                        .get("hits"))
                .isEmpty();
        assertThat(assemble(theirs, agent, "restore the PostgreSQL backup", 2000, 3, "bob")
                        .get("relevantSkills")
                        .asText())
                .isEmpty();
        // the skill is still there for its own tenant, and its own name is free in the other tenant
        assertThat(mine.get("/skills/" + id + query("agentId", agent)).status()).isEqualTo(200);
        create(theirs, agent, SKILLS[0]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void badInputAnswers400NamingTheField(Api server) {
        Api api = tenant(server, "skills-bad");
        String agent = "ops";
        String id = create(api, agent, SKILLS[0]).get("skillId").asText();
        assertProblem(api.post("/skills", obj("agentId", agent, "description", "d", "instructions", "i")), "name");
        assertProblem(
                api.post(
                        "/skills",
                        obj("agentId", agent, "name", "n".repeat(201), "description", "d", "instructions", "i")),
                "name");
        assertProblem(
                api.post("/skills", obj("agentId", agent, "name", "n", "description", " ", "instructions", "i")),
                "description");
        assertProblem(api.post("/skills", obj("name", "n", "description", "d", "instructions", "i")), "agentId");
        assertProblem(
                api.post(
                        "/skills",
                        obj(
                                "agentId",
                                agent,
                                "name",
                                "n",
                                "description",
                                "d",
                                "instructions",
                                "i",
                                "tools",
                                Collections.nCopies(51, "t"))),
                "tools");
        List<String> examples = new ArrayList<>(List.of("ok", "e".repeat(4001)));
        assertProblem(
                api.post(
                        "/skills",
                        obj(
                                "agentId",
                                agent,
                                "name",
                                "n",
                                "description",
                                "d",
                                "instructions",
                                "i",
                                "examples",
                                examples)),
                "examples[1]");
        assertProblem(api.post("/skills", "not json"), null);
        assertProblem(api.post("/skills/search", obj("agentId", agent, "query", "q", "topK", 0)), "topK");
        assertProblem(api.post("/skills/relevant", obj("agentId", agent, "query", "q", "maxSkills", 101)), "maxSkills");
        assertProblem(api.get("/skills" + query("agentId", agent, "source", "borrowed")), "source");
        assertProblem(api.get("/skills" + query("agentId", agent, "limit", "0")), "limit");
        assertProblem(api.get("/skills" + query("agentId", agent, "cursor", "nonsense")), "cursor");
        assertProblem(
                api.put(
                        "/skills/" + id,
                        obj("agentId", agent, "name", "n", "description", "d", "instructions", "i"),
                        "If-Match",
                        "yesterday"),
                "If-Match");
        // a token narrowed to a user reads skills but cannot write them; one narrowed to an agent reaches only it
        Api user = api.as(Tokens.of(api, tenantOf(api), List.of("memory-admin"))
                .withClaim("memory_user", "alice")
                .sign());
        assertThat(user.get("/skills" + query("agentId", agent)).status()).isEqualTo(200);
        assertThat(user.post("/skills", obj("agentId", agent, "name", "n", "description", "d", "instructions", "i"))
                        .status())
                .isEqualTo(403);
        Api other = api.as(Tokens.of(api, tenantOf(api), List.of("memory-admin"))
                .withClaim("memory_agent", "another")
                .sign());
        assertThat(other.get("/skills" + query("agentId", agent)).status()).isEqualTo(403);
        assertThat(other.get("/skills").json().get("items")).isEmpty(); // narrowed to its own agent
        Api reader =
                api.as(Tokens.of(api, tenantOf(api), List.of("memory-reader")).sign());
        assertThat(reader.post("/skills", obj("agentId", agent, "name", "n", "description", "d", "instructions", "i"))
                        .status())
                .isEqualTo(403);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void theDreamCycleExtractsASkillFromSuccessfulEpisodesOnceAndLeavesCallersSkillsAlone(Api server) {
        Api api = tenant(server, "skills-dream");
        String agent = "deployer";
        JsonNode registered = api.put("/agents", obj("agentId", agent, "skillAutoExtract", true))
                .json();
        assertThat(registered.get("skillAutoExtract").asBoolean()).isTrue();
        String[] lessons = {
            "Run kubectl diff before kubectl apply",
            "Pin the image digest, not a tag",
            "Run kubectl diff before kubectl apply"
        };
        List<String> kubectl = new ArrayList<>();
        for (int i = 0; i < lessons.length; i++) {
            kubectl.add(success(
                    api, agent, "user-" + i, "Deploy checkout for Alice Example, order " + i, "kubectl", lessons[i]));
        }
        kubectl.add(success(api, agent, "user-9", "Deploy search for Bob Example", "kubectl", null));
        success(api, agent, "user-1", "Migrate the orders table", "psql", "Run migrations off-peak");
        success(api, agent, "user-2", "Migrate the users table", "psql", "Run migrations off-peak");
        success(api, "quiet", "user-1", "Deploy checkout", "kubectl", lessons[0]);
        success(api, "quiet", "user-2", "Deploy search", "kubectl", lessons[1]);
        success(api, "quiet", "user-3", "Deploy cart", "kubectl", lessons[2]);

        DreamCycleIT.run(api, agent);
        JsonNode extracted = api.get("/skills" + query("agentId", agent, "source", "extracted"))
                .json()
                .get("items");
        assertThat(texts(extracted, "name")).containsExactly("Tool Execution with kubectl"); // psql: 2 < 3 episodes
        JsonNode skill = extracted.get(0);
        assertThat(skill.get("instructions").asText())
                .isEqualTo("- Run kubectl diff before kubectl apply\n- Pin the image digest, not a tag");
        assertThat(skill.get("description").asText())
                .isEqualTo(
                        "What worked in tool execution with kubectl, distilled from the agent's successful episodes.");
        assertThat(texts(skill.get("tools"))).containsExactly("kubectl");
        assertThat(texts(skill.get("evidence")))
                .containsExactlyElementsOf(
                        kubectl.stream().map(id -> "episode:" + id).sorted().toList());
        assertThat(skill.toString()).doesNotContain("Alice Example", "Bob Example", "user-");
        assertThat(skill.get("version").asLong()).isEqualTo(1);
        // the extracted skill feeds the agent's context
        assertThat(assemble(api, agent, "deploy with kubectl apply", 2000, 3, "user-0")
                        .get("relevantSkills")
                        .asText())
                .startsWith("### Tool Execution with kubectl");

        DreamCycleIT.run(api, agent);
        JsonNode again = api.get("/skills" + query("agentId", agent)).json().get("items");
        assertThat(again).hasSize(1);
        assertThat(again.get(0).get("version").asLong())
                .as("a re-run changes nothing")
                .isEqualTo(1);

        String newer = success(api, agent, "user-4", "Deploy cart", "kubectl", "Watch kubectl rollout status");
        DreamCycleIT.run(api, agent);
        JsonNode updated = api.get("/skills/" + skill.get("skillId").asText() + query("agentId", agent))
                .json();
        assertThat(updated.get("version").asLong()).isEqualTo(2);
        assertThat(updated.get("instructions").asText()).endsWith("- Watch kubectl rollout status");
        assertThat(texts(updated.get("evidence"))).contains("episode:" + newer).hasSize(5);

        // a caller's edit makes the skill manual; later cycles leave it alone
        Api.Response edited = api.put(
                "/skills/" + skill.get("skillId").asText(),
                obj(
                        "agentId",
                        agent,
                        "name",
                        "Tool Execution with kubectl",
                        "description",
                        "Ours.",
                        "instructions",
                        "Ours."));
        assertThat(edited.json().get("source").asText()).isEqualTo("manual");
        success(api, agent, "user-5", "Deploy auth", "kubectl", "Keep one replica during the rollout");
        DreamCycleIT.run(api, agent);
        JsonNode kept = api.get("/skills/" + skill.get("skillId").asText() + query("agentId", agent))
                .json();
        assertThat(kept.get("instructions").asText()).isEqualTo("Ours.");
        assertThat(kept.get("version").asLong()).isEqualTo(3);

        // an agent without the setting (the deployment's default is off) gets none
        DreamCycleIT.run(api, "quiet");
        assertThat(api.get("/skills" + query("agentId", "quiet")).json().get("items"))
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void erasingAUserDeletesTheSkillsExtractedFromTheirEpisodesAndNoOtherSkill(Api server) {
        Api api = tenant(server, "skills-erasure");
        String agent = "operator";
        api.put("/agents", obj("agentId", agent, "skillAutoExtract", true));
        String subject = unique("subject");
        success(api, agent, subject, "Deploy checkout", "kubectl", "Run kubectl diff before kubectl apply");
        success(api, agent, "other-1", "Deploy search", "kubectl", "Pin the image digest, not a tag");
        success(api, agent, "other-2", "Deploy cart", "kubectl", "Watch kubectl rollout status");
        for (String user : List.of("other-1", "other-2", "other-3")) {
            success(api, agent, user, "Migrate " + user, "psql", "Run migrations off-peak");
        }
        JsonNode manual = create(api, agent, new String[] {"Kubectl by hand", "Ours.", "Ours.", "kubectl"});
        DreamCycleIT.run(api, agent);
        JsonNode extracted = api.get("/skills" + query("agentId", agent, "source", "extracted"))
                .json()
                .get("items");
        assertThat(texts(extracted, "name"))
                .containsExactlyInAnyOrder("Tool Execution with kubectl", "Tool Execution with psql");

        JsonNode receipt = api.post("/erasures", obj("userId", subject)).json();
        assertThat(receipt.get("extractedSkills").asLong())
                .as(receipt.toString())
                .isEqualTo(1);
        JsonNode left = api.get("/skills" + query("agentId", agent)).json().get("items");
        assertThat(texts(left, "name")).containsExactlyInAnyOrder("Tool Execution with psql", "Kubectl by hand");
        assertThat(left.toString()).doesNotContain("kubectl diff");
        assertThat(api.post("/skills/relevant", obj("agentId", agent, "query", "kubectl diff before apply"))
                        .body())
                .doesNotContain("kubectl diff");
        assertThat(manual.get("skillId").asText()).isNotEmpty();

        // the remaining kubectl episodes (two) no longer make a cluster: the next cycle does not bring it back
        DreamCycleIT.run(api, agent);
        assertThat(texts(
                        api.get("/skills" + query("agentId", agent, "source", "extracted"))
                                .json()
                                .get("items"),
                        "name"))
                .containsExactly("Tool Execution with psql");
        assertThat(api.post("/erasures", obj("userId", subject))
                        .json()
                        .get("extractedSkills")
                        .asLong())
                .isZero();
    }

    /** Records a successful episode with an explicit lesson (none when {@code null}); @return its id */
    static String success(Api api, String agent, String user, String situation, String tool, String lesson) {
        Map<String, Object> body = obj(
                "namespace",
                obj("agentId", agent, "userId", user),
                "situation",
                situation,
                "actionTaken",
                "Ran " + tool + " for " + user,
                "outcome",
                "success",
                "category",
                "tool_execution",
                "relatedTools",
                List.of(tool),
                "generateReflection",
                false);
        if (lesson != null) {
            body.put("lessonLearned", lesson);
        }
        Api.Response r = api.post("/episodes", body);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json().get("episodeId").asText();
    }

    // ------------------------------------------------------------------------------------------ helpers

    static JsonNode assemble(Api api, String agent, String query, int maxTokens, int skills) {
        return assemble(api, agent, query, maxTokens, skills, "alice");
    }

    static JsonNode assemble(Api api, String agent, String query, int maxTokens, int skills, String user) {
        Api.Response r = api.post(
                "/context/assemble",
                obj(
                        "userId",
                        user,
                        "sessionId",
                        "s1",
                        "chatbotId",
                        agent,
                        "query",
                        query,
                        "config",
                        obj("maxContextTokens", maxTokens, "skillMaxContext", skills)));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    /** @return the tenant of a client made by {@link #tenant} (its token's claim) */
    static String tenantOf(Api api) {
        String payload = api.token().split("\\.")[1];
        try {
            return Api.JSON
                    .readTree(java.util.Base64.getUrlDecoder().decode(payload))
                    .get("tenant")
                    .asText();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void assertProblem(Api.Response r, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        if (field != null) {
            assertThat(r.json().get("field").asText()).as(r.body()).isEqualTo(field);
        }
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(field).asText()));
        return out;
    }
}
