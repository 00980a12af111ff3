//! Adam over all of a network's trained weights at once. libtorch's C++ Adam (tch's `nn::Adam`) updates one
//! tensor at a time, about nine small kernels per tensor and step: on a GPU, for a network of tens of tensors,
//! hundreds of launches that take longer than the arithmetic (PyTorch's Python Adam batches them, tch does not
//! bind those calls). Here every trained tensor, and its gradient, is made a view into one flat buffer, so
//! that a step is ten kernels over the buffers, whatever the network. The arithmetic is libtorch's Adam's
//! (no weight decay), up to rounding: tch binds no scaled `add_`/`addcmul_`, so a product is rounded on its
//! own (a test checks the weights of both after steps).

use tch::nn::VarStore;
use tch::{Kind, Tensor};

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;

pub(crate) struct FlatAdam {
    /// The trained weights, each a view into `weights`; and their gradients, views into `grads`.
    weights: Tensor,
    grads: Tensor,
    exp_avg: Tensor,
    exp_avg_sq: Tensor,
    steps: i32,
    lr: f64,
}

impl FlatAdam {
    /// Moves the trained variables of `vs` (those that require a gradient) into one buffer (their values kept)
    /// and starts Adam's moments at 0. The variables must all be of one kind and device, and keep their storage
    /// from here on (load weights with `copy_`, as `VarStore::load` does).
    pub(crate) fn new(vs: &VarStore, lr: f64) -> FlatAdam {
        let mut vars = vs.trainable_variables();
        vars.retain(Tensor::requires_grad);
        let total: i64 = vars.iter().map(|v| v.numel() as i64).sum();
        let options = vars.first().map_or((Kind::Float, vs.device()), |v| (v.kind(), v.device()));
        let weights = Tensor::zeros([total], options);
        let grads = Tensor::zeros([total], options);
        // a gradient for every variable, so that each can be pointed at its place in `grads`
        let touch = vars.iter().map(|v| v.sum(v.kind()) * 0.0).fold(Tensor::zeros([], options), |a, b| a + b);
        touch.backward();
        let mut at = 0;
        for v in vars.iter_mut() {
            let (n, size) = (v.numel() as i64, v.size());
            let place = weights.narrow(0, at, n).view(size.as_slice());
            tch::no_grad(|| place.shallow_clone().copy_(v));
            v.set_data(&place);
            v.grad().set_data(&grads.narrow(0, at, n).view(size.as_slice()));
            at += n;
        }
        FlatAdam { exp_avg: weights.zeros_like(), exp_avg_sq: weights.zeros_like(), weights, grads, steps: 0, lr }
    }

    pub(crate) fn set_lr(&mut self, lr: f64) {
        self.lr = lr;
    }

    /// Gradients to zero, `loss` back-propagated, one step of Adam.
    pub(crate) fn backward_step(&mut self, loss: &Tensor) {
        let _ = self.grads.zero_();
        loss.backward();
        tch::no_grad(|| {
            self.steps += 1;
            let g = &self.grads;
            // m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2; w -= lr / (1 - b1^t) m / (sqrt(v / (1 - b2^t)) + eps)
            let _ = self.exp_avg.lerp_(g, 1.0 - BETA1);
            let _ = self.exp_avg_sq.g_mul_scalar_(BETA2).addcmul_(g, &(g * (1.0 - BETA2)));
            let correction1 = 1.0 - BETA1.powi(self.steps);
            let correction2 = 1.0 - BETA2.powi(self.steps);
            let denom = (self.exp_avg_sq.sqrt() / correction2.sqrt()) + EPS;
            let _ = self.weights.addcdiv_(&(&self.exp_avg * (-self.lr / correction1)), &denom);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::nn::{self, Module, OptimizerConfig};
    use tch::Device;

    fn net(vs: &VarStore) -> impl Module {
        let p = vs.root();
        nn::seq().add(nn::linear(&p / "a", 7, 5, Default::default())).add_fn(|x| x.relu()).add(nn::linear(
            &p / "b",
            5,
            3,
            Default::default(),
        ))
    }

    /// Ten steps of each from the same weights on the same batches: the same weights after every step, to
    /// float rounding.
    #[test]
    fn steps_equal_libtorchs_adam() {
        let _one = crate::generator();
        tch::manual_seed(3);
        let (vs1, vs2) = (VarStore::new(Device::Cpu), VarStore::new(Device::Cpu));
        let (n1, n2) = (net(&vs1), net(&vs2));
        vs2.variables().iter().for_each(|(k, v)| tch::no_grad(|| v.shallow_clone().copy_(&vs1.variables()[k])));
        let mut theirs = nn::Adam::default().build(&vs1, 1e-2).unwrap();
        let mut ours = FlatAdam::new(&vs2, 1e-2);
        let before = vs2.variables()["b.weight"].copy();
        for step in 0..10 {
            let x = Tensor::randn([16, 7], (Kind::Float, Device::Cpu));
            let y = Tensor::randint(3, [16], (Kind::Int64, Device::Cpu));
            if step == 6 {
                theirs.set_lr(1e-3);
                ours.set_lr(1e-3);
            }
            theirs.backward_step(&n1.forward(&x).cross_entropy_for_logits(&y));
            ours.backward_step(&n2.forward(&x).cross_entropy_for_logits(&y));
            for (k, v) in vs1.variables() {
                let w = &vs2.variables()[&k];
                assert!(v.allclose(w, 1e-5, 1e-6, false), "{k} after step {step}: {v:?} vs {w:?}");
            }
        }
        // and the steps moved them: the same start is not what makes them equal
        let moved = (&vs2.variables()["b.weight"] - before).abs().max().double_value(&[]);
        assert!(moved > 1e-3, "{moved}");
    }
}
