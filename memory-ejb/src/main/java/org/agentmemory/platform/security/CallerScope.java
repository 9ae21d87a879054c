package org.agentmemory.platform.security;

import jakarta.annotation.Resource;
import jakarta.ejb.EJBAccessException;
import jakarta.ejb.SessionContext;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.security.Principal;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.config.MemorySettings;
import org.agentmemory.platform.config.Settings;

/**
 * The identity of EJB callers (issue 32 item 2), on every business call of the public session beans.
 *
 * <ul>
 *   <li>An <b>authenticated</b> caller (a remote client, which WildFly's remoting always authenticates, or a caller in
 *       another deployment running as a logged-in user) acts in the tenant {@code memory.security.ejb.tenants}
 *       maps its principal to, and needs the operation's role ({@link RequiresRole}, or a higher one) from the
 *       server's security domain. Every tenant it passes is replaced by its own ({@link TenantArguments}); a
 *       principal without a tenant, a missing role, or an operation without a declared role is refused with
 *       {@link EJBAccessException}.</li>
 *   <li>An <b>unauthenticated</b> in-process caller ({@code anonymous} on WildFly, {@code UNAUTHENTICATED} on Open
 *       Liberty: this application's REST layer, which has
 *       verified the caller's token and passes its tenant; timers; code deployed on the same server, which is
 *       trusted as it can reach the datasource itself) passes unchanged.</li>
 * </ul>
 * Calls a public bean makes to another during the same call are not checked again.
 */
public class CallerScope {

    private static final Logger LOG = Logger.getLogger(CallerScope.class.getName());

    /** The principal name of a caller that did not authenticate on WildFly. */
    static final String ANONYMOUS = "anonymous";

    /** The principal name of a caller that did not authenticate on Open Liberty. */
    static final String UNAUTHENTICATED = "UNAUTHENTICATED";

    /** Roles from the least to the highest; each includes the ones before it. */
    static final List<String> LADDER =
            List.of(RequiresRole.READER, RequiresRole.WRITER, RequiresRole.ADMIN, RequiresRole.OPERATOR);

    /** Set while a checked call runs on this thread: the calls it makes to other public beans are its own. */
    private static final ThreadLocal<Boolean> INSIDE = new ThreadLocal<>();

    @Resource
    SessionContext context;

    @Inject
    Settings settings;

    @AroundInvoke
    Object scope(InvocationContext invocation) throws Exception {
        if (INSIDE.get() != null) {
            return invocation.proceed();
        }
        Principal caller = context.getCallerPrincipal();
        if (unauthenticated(caller)) {
            return invocation.proceed();
        }
        Method operation = declared(invocation.getMethod());
        String tenant = settings.ejbCallerTenants().get(caller.getName());
        if (tenant == null) {
            LOG.log(Level.FINE, "Refused EJB caller {0}: no tenant", caller.getName());
            throw new EJBAccessException("The caller '" + caller.getName() + "' has no tenant: map it in "
                    + MemorySettings.SECURITY_EJB_TENANTS + " (principal=tenant).");
        }
        RequiresRole required = operation == null ? null : operation.getAnnotation(RequiresRole.class);
        if (required == null) {
            throw new EJBAccessException(invocation.getMethod().getName() + " is not open to EJB callers.");
        }
        if (!hasRole(required.value())) {
            throw new EJBAccessException("The caller '" + caller.getName() + "' lacks the role " + required.value()
                    + " that " + operation.getName() + " needs.");
        }
        invocation.setParameters(TenantArguments.scoped(operation.getParameters(), invocation.getParameters(), tenant));
        INSIDE.set(Boolean.TRUE);
        try {
            return invocation.proceed();
        } finally {
            INSIDE.remove();
        }
    }

    /**
     * @param caller an EJB caller principal, or {@code null}
     * @return whether it is a caller that did not authenticate (on WildFly or Open Liberty)
     */
    public static boolean unauthenticated(Principal caller) {
        return caller == null || ANONYMOUS.equals(caller.getName()) || UNAUTHENTICATED.equals(caller.getName());
    }

    /** @return whether the caller has {@code role} or a role above it */
    private boolean hasRole(String role) {
        int least = LADDER.indexOf(role);
        for (int i = Math.max(least, 0); i < LADDER.size(); i++) {
            if (context.isCallerInRole(LADDER.get(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return the method of the view the bean was called through that {@code implementation} implements (its
     *         annotations and parameter names are the public contract), or {@code null} when it is none
     */
    private Method declared(Method implementation) {
        Class<?> view;
        try {
            view = context.getInvokedBusinessInterface();
        } catch (IllegalStateException noView) {
            return null;
        }
        try {
            return view.getMethod(implementation.getName(), implementation.getParameterTypes());
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
