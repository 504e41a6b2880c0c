// Loads upstream/lulesh.cu as shipped and takes the kernels that LULESH's time loop launches.
#include "lulesh_kernels.h"

#include <filesystem>

namespace lulesh {
namespace {

// The names as the kernel file instantiates them: CalcVolumeForceForElems_kernel<true> (hgcoef
// is 3 > 0), CalcTimeConstraintsForElems_kernel<128> and CalcMinDtOneBlock<1024> (upstream's
// dimBlock and max_dimGrid).
constexpr const char* kVolumeForce = "CalcVolumeForceForElems_kernel<true>";
constexpr const char* kAddNodeForces = "AddNodeForcesFromElems_kernel";
constexpr const char* kAcceleration = "CalcAccelerationForNodes_kernel";
constexpr const char* kAccelerationBc = "ApplyAccelerationBoundaryConditionsForNodes_kernel";
constexpr const char* kPositionVelocity = "CalcPositionAndVelocityForNodes_kernel";
constexpr const char* kKinematics = "CalcKinematicsAndMonotonicQGradient_kernel";
constexpr const char* kMonotonicQ = "CalcMonotonicQRegionForElems_kernel";
constexpr const char* kMaterial = "ApplyMaterialPropertiesAndUpdateVolume_kernel";
constexpr const char* kTimeConstraints = "CalcTimeConstraintsForElems_kernel<128>";
constexpr const char* kMinDt = "CalcMinDtOneBlock<1024>";

/// `name` of `program` on `device`, typed as `into` is.
template <class... P>
void take(const kjit::Program& program, const char* name, const kjit::Device& device,
          kjit::Kernel<P...>& into) {
  into = program.kernel<P...>(name, device);
}

}  // namespace

kjit::Program load_program(const std::string& file, bool specialise, bool wait_for_variant) {
  kjit::CompileOptions options;  // upstream's Makefile: -O3 -DNDEBUG, no fast math
  // lulesh.cu includes <util.h> and <sm_utils.inl> with angle brackets (its Makefile's -I ./);
  // <allocator.h> (host code only) is found nowhere and compiles as empty.
  options.include_dirs = {std::filesystem::path(file).parent_path()};
  options.defines["NDEBUG"] = "";
  // All ten in one compile, at the first kernel() call (else one compile each).
  options.kernels = {kVolumeForce,      kAddNodeForces, kAcceleration, kAccelerationBc,
                     kPositionVelocity, kKinematics,    kMonotonicQ,   kMaterial,
                     kTimeConstraints,  kMinDt};
  if (specialise) {
    // CalcVolumeForceForElems_kernel's annotate("jit", 5, 6, 7, 21) (hourg, numElem,
    // padded_numElem, num_threads) and CalcKinematicsAndMonotonicQGradient_kernel's
    // annotate("jit", 1, 2, 27) (numElem, padded_numElem, num_threads), which upstream puts
    // behind ENABLE_JIT.
    options.defines["ENABLE_JIT"] = "";
  }
  options.launch_waits_for_variants = wait_for_variant;
  return kjit::Program::from_file(file, options);
}

Kernels load_kernels(const kjit::Program& program, const kjit::Device& device) {
  Kernels k;
  take(program, kVolumeForce, device, k.volume_force);
  take(program, kAddNodeForces, device, k.add_node_forces);
  take(program, kAcceleration, device, k.acceleration);
  take(program, kAccelerationBc, device, k.acceleration_bc);
  take(program, kPositionVelocity, device, k.position_velocity);
  take(program, kKinematics, device, k.kinematics);
  take(program, kMonotonicQ, device, k.monotonic_q);
  take(program, kMaterial, device, k.material);
  take(program, kTimeConstraints, device, k.time_constraints);
  take(program, kMinDt, device, k.min_dt);
  return k;
}

}  // namespace lulesh
