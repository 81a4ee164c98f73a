package io.servesim.policy.code;

import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import io.servesim.policy.api.Admission;
import io.servesim.policy.api.AdmissionPolicy;
import io.servesim.policy.api.AutoscalePolicy;
import io.servesim.policy.api.Instances;
import io.servesim.policy.api.PriorityPolicy;
import io.servesim.policy.api.RequestView;
import io.servesim.policy.api.RoutingPolicy;
import io.servesim.policy.api.ScaleView;
import io.servesim.policy.api.SchedulingPolicy;
import io.servesim.usercode.CallBudget;
import io.servesim.usercode.UserCode;
import io.servesim.usercode.UserCodeException;
import java.nio.file.Path;
import java.util.List;

/**
 * A code policy loaded for one run: the user's object (an instance of the kind's {@code io.servesim.policy.api}
 * interface, called directly), the budget its calls run under, and how messages name it
 * ({@code policies.routing (LeastQueue.java)}).
 *
 * @param policy the user's object
 * @param budget its calls' time budget
 * @param owner  the config path and file name, for messages
 * @param file   the source file's name, as its stack frames give it
 * @param code   the compiled source (which API methods it calls)
 * @param <T>    the API interface
 */
record Loaded<T>(T policy, CallBudget budget, String owner, String file, UserCode<T> code) {
    /** The classes a policy source compiles against: the public policy interface, top-level types. */
    static final List<Class<?>> API = List.of(RequestView.class, Instances.class, ScaleView.class, Admission.class,
            RoutingPolicy.class, AdmissionPolicy.class, PriorityPolicy.class, SchedulingPolicy.class,
            AutoscalePolicy.class);

    /** Reads the spec's {@code params}, compiles (or finds compiled) its source and builds one instance. */
    static <T> Loaded<T> of(PolicySpec spec, PolicyContext ctx, CodeParams<T> params) {
        Path source = params.sourceFile(spec, ctx.baseDir());
        long budgetNanos = params.callBudgetNanos(spec);
        UserCode<T> code = UserCode.load(source, params.iface(), API, spec.path() + ".params." + CodeParams.SOURCE);
        String owner = spec.path() + " (" + code.fileName() + ")";
        CallBudget budget = new CallBudget(budgetNanos, owner);
        return new Loaded<>(code.newInstance(budget), budget, owner, code.fileName(), code);
    }

    /** The failure of a call that broke its contract ({@code what}), naming the policy. */
    UserCodeException broke(String what) {
        return new UserCodeException(owner + ": " + what);
    }
}
