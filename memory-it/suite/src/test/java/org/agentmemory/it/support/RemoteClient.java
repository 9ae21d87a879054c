package org.agentmemory.it.support;

import java.util.Properties;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.agentmemory.api.context.ContextMemoryRemote;
import org.agentmemory.api.conversation.ConversationMemoryRemote;

/**
 * A plain Java remote EJB client, as an agent backend outside the server would write it (wildfly-client-all on the
 * class path). It authenticates as an application user of the test servers ({@code src/test/wildfly}); the server
 * maps the user to its tenant ({@code memory.security.ejb.tenants}) and takes its roles from Elytron.
 */
public final class RemoteClient {

    /** The lookup name of the remote view. */
    public static final String NAME =
            "ejb:agent-memory/memory-ejb/ConversationMemoryBean!" + ConversationMemoryRemote.class.getName();

    /** The lookup name of the read path's remote view. */
    public static final String CONTEXT_NAME =
            "ejb:agent-memory/memory-ejb/ContextMemoryBean!" + ContextMemoryRemote.class.getName();

    /** An application user of the test servers. */
    public record User(String name, String password) {}

    /** Tenant {@code default}, every role: the user the remote tests act as unless they say otherwise. */
    public static final User ITEST = new User("memory-itest", "itest-secret-1");

    /** Tenant {@code ejb-tenant-a}, memory-writer. */
    public static final User ALICE = new User("memory-alice", "alice-secret-1");

    /** Tenant {@code ejb-tenant-b}, memory-writer. */
    public static final User BOB = new User("memory-bob", "bob-secret-1");

    /** memory-writer, but no tenant: refused. */
    public static final User NOBODY = new User("memory-nobody", "nobody-secret-1");

    private RemoteClient() {}

    /**
     * @param user the user to authenticate as
     * @return a proxy to the PostgreSQL server's remote episodic memory, as {@code user}
     */
    public static org.agentmemory.api.episodic.EpisodicMemoryRemote episodicMemory(User user) {
        return lookup(
                "ejb:agent-memory/memory-ejb/EpisodicMemoryBean!"
                        + org.agentmemory.api.episodic.EpisodicMemoryRemote.class.getName(),
                org.agentmemory.api.episodic.EpisodicMemoryRemote.class,
                user);
    }

    /** @return a proxy to the PostgreSQL server's remote episodic memory */
    public static org.agentmemory.api.episodic.EpisodicMemoryRemote episodicMemory() {
        return lookup(
                "ejb:agent-memory/memory-ejb/EpisodicMemoryBean!"
                        + org.agentmemory.api.episodic.EpisodicMemoryRemote.class.getName(),
                org.agentmemory.api.episodic.EpisodicMemoryRemote.class);
    }

    /** @return a proxy to the PostgreSQL server's remote conversation recall */
    public static org.agentmemory.api.recall.ConversationRecallRemote conversationRecall() {
        return lookup(
                "ejb:agent-memory/memory-ejb/ConversationRecallBean!"
                        + org.agentmemory.api.recall.ConversationRecallRemote.class.getName(),
                org.agentmemory.api.recall.ConversationRecallRemote.class);
    }

    /**
     * @param user the user to authenticate as
     * @return a proxy to the PostgreSQL server's remote view of the read path, as {@code user}
     */
    public static ContextMemoryRemote contextMemory(User user) {
        return lookup(CONTEXT_NAME, ContextMemoryRemote.class, user);
    }

    /** @return a proxy to the PostgreSQL server's remote view of the read path */
    public static ContextMemoryRemote contextMemory() {
        return lookup(CONTEXT_NAME, ContextMemoryRemote.class);
    }

    /** @return a proxy to the PostgreSQL server's remote view */
    public static ConversationMemoryRemote conversationMemory() {
        return lookup(NAME, ConversationMemoryRemote.class);
    }

    /**
     * @param user the user to authenticate as, or {@code null} for none (a same-host client then connects as the
     *             JBOSS-LOCAL-USER {@code $local})
     * @return a proxy to the PostgreSQL server's remote view of conversations, as {@code user}
     */
    public static ConversationMemoryRemote conversationMemory(User user) {
        return lookup(NAME, ConversationMemoryRemote.class, user);
    }

    private static <T> T lookup(String name, Class<T> view) {
        return lookup(name, view, ITEST);
    }

    /**
     * @param name the {@code ejb:} lookup name
     * @param view the view's interface
     * @param user the user to authenticate as, or {@code null} for none
     * @param <T>  the view
     * @return a proxy to the PostgreSQL server's remote view, as {@code user}
     */
    public static <T> T lookup(String name, Class<T> view, User user) {
        Properties env = new Properties();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.wildfly.naming.client.WildFlyInitialContextFactory");
        env.put(Context.PROVIDER_URL, System.getProperty("it.pg.remoting", "remote+http://localhost:8180"));
        if (user != null) {
            env.put(Context.SECURITY_PRINCIPAL, user.name());
            env.put(Context.SECURITY_CREDENTIALS, user.password());
        }
        try {
            return view.cast(new InitialContext(env).lookup(name));
        } catch (NamingException e) {
            throw new IllegalStateException("remote lookup of " + name + " failed", e);
        }
    }

    /** @return the messages of a throwable and its causes, joined */
    public static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null && all.length() < 10_000; c = c.getCause()) {
            all.append(c).append(" | ");
            if (c.getCause() == c) {
                break;
            }
        }
        return all.toString();
    }

    /**
     * Skips the calling test on Open Liberty (the suite's Liberty run sets {@code it.liberty}): Liberty binds remote EJB
     * views for IIOP only, which this client (remote+http) cannot call.
     */
    public static void assumeRemoting() {
        org.junit.jupiter.api.Assumptions.assumeFalse(
                Boolean.getBoolean("it.liberty"), "Open Liberty binds remote EJBs for IIOP only (no remote+http)");
    }
}
